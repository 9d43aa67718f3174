package Storable;
# benchtop's stand-in for Storable (zeroperl, the Perl in WebAssembly, lacks it: it is XS, and
# Encode needs it too). Written for benchtop: dclone (deep copy, blessings and shared or
# circular references kept), and freeze/nfreeze/thaw, store/nstore/retrieve on a text form of
# the data (Data::Dumper), so what they write is not Storable's binary format.
use strict;
use warnings;
use Data::Dumper ();
use Scalar::Util qw(blessed reftype);
require Exporter;
our @ISA = ('Exporter');
our $VERSION = '3.23';
our @EXPORT = qw(store retrieve);
our @EXPORT_OK = qw(nstore store_fd nstore_fd fd_retrieve freeze nfreeze thaw dclone retrieve_fd lock_store lock_nstore lock_retrieve file_magic read_magic);
our %EXPORT_TAGS = (lock => [qw(lock_store lock_nstore lock_retrieve)]);
our ($canonical, $Deparse, $Eval, $forgive_me);

sub dclone {
    my ($data) = @_;
    die "Not a reference" unless ref $data;
    my %seen;
    my $copy;
    $copy = sub {
        my ($item) = @_;
        return $item unless ref $item;
        return $seen{$item} if exists $seen{$item};
        my $type = reftype($item);
        my $class = blessed($item);
        my $new;
        if ($type eq 'ARRAY') {
            $new = [];
            $seen{$item} = $new;
            @$new = map { $copy->($_) } @$item;
        }
        elsif ($type eq 'HASH') {
            $new = {};
            $seen{$item} = $new;
            %$new = map { $_ => $copy->($item->{$_}) } keys %$item;
        }
        elsif ($type eq 'SCALAR' || $type eq 'REF') {
            my $inner;
            $new = \$inner;
            $seen{$item} = $new;
            $inner = $copy->($$item);
        }
        elsif ($type eq 'CODE') {
            die "Can't store CODE items";
        }
        else {
            die "Can't store item $type";
        }
        bless $new, $class if defined $class;
        return $new;
    };
    return $copy->($data);
}

my $MAGIC = "benchtop-storable\n";

sub _serialize {
    my ($data) = @_;
    die "Not a reference" unless ref $data;
    local $Data::Dumper::Purity = 1;
    local $Data::Dumper::Indent = 0;
    local $Data::Dumper::Sortkeys = 1;
    local $Data::Dumper::Useqq = 1;
    local $Data::Dumper::Deparse = 0;
    return $MAGIC . Data::Dumper->Dump([$data], ['storable']);
}

sub _deserialize {
    my ($text) = @_;
    return undef unless defined $text && substr($text, 0, length $MAGIC) eq $MAGIC;
    my $storable;
    eval substr($text, length $MAGIC);
    die $@ if $@;
    return $storable;
}

sub freeze  { return _serialize($_[0]) }
sub nfreeze { return _serialize($_[0]) }
sub thaw    { return _deserialize($_[0]) }

sub store {
    my ($data, $file) = @_;
    my $text = _serialize($data);
    open my $fh, '>', $file or die "can't create $file: $!";
    print {$fh} $text;
    close $fh or die "can't write $file: $!";
    return 1;
}
sub nstore { return store(@_) }
sub lock_store { return store(@_) }
sub lock_nstore { return store(@_) }

sub retrieve {
    my ($file) = @_;
    open my $fh, '<', $file or die "can't open $file: $!";
    local $/;
    my $text = <$fh>;
    close $fh;
    return _deserialize($text);
}
sub lock_retrieve { return retrieve(@_) }

for my $name (qw(store_fd nstore_fd fd_retrieve retrieve_fd file_magic read_magic)) {
    no strict 'refs';
    *{"Storable::$name"} = sub { die "Storable::$name is not available in benchtop's in-browser Perl\n" };
}

1;
