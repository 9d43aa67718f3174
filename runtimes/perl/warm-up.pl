# Run a few times by benchtop's Perl runtime when a worker starts (runtimes/perl/zeroperl.ts), never
# as a test: it makes V8 compile the interpreter's hot paths with its optimising compiler before
# the first real program. V8 first compiles WebAssembly with a quick baseline compiler and
# recompiles a function only once it has run enough; until then Perl compiles modules (strict,
# warnings, Test::More) several times slower. Every program still starts from the snapshot taken
# before this ran, so nothing of it is visible to programs: only the compiled code is kept.
use strict;
use warnings;
use Test::More;
use List::Util qw(sum max min first reduce);
use Scalar::Util qw(looks_like_number blessed reftype);
use POSIX qw(floor ceil);
use Data::Dumper;

# Compiling is most of a short program's time: compile the two modules every program uses again.
for (1 .. 4) {
    do $INC{'strict.pm'};
    do $INC{'warnings.pm'};
}

my %squares;
$squares{"k$_"} = $_ * $_ for 1 .. 2000;
my @sorted = sort { $a <=> $b } values %squares;
my $text = join ',', map { sprintf '%04d', $_ } @sorted[0 .. 99];
(my $marked = $text) =~ s/(\d+)/<$1>/g;
my @fields = split /,/, $text;
local $Data::Dumper::Sortkeys = 1;
my $dump = Dumper({ list => [ 1, 2 ], map => { key => 'value' } });

sub fib { my ($n) = @_; return $n < 2 ? $n : fib($n - 1) + fib($n - 2) }

ok(@fields == 100, 'split');
is(sum(@sorted[0 .. 3]), 30, 'sum');
is(max(map { floor($_ / 3) } 1 .. 10), 3, 'max of floors');
is_deeply([ map { $_ * 2 } 1 .. 3 ], [ 2, 4, 6 ], 'is_deeply');
like($marked, qr/<0004>/, 'like');
cmp_ok(length $dump, '>', 10, 'cmp_ok');
ok(looks_like_number('1e3') && !blessed([]) && reftype({}) eq 'HASH', 'Scalar::Util');
is(fib(15), 610, 'recursion');
is((reduce { $a * $b } 1 .. 5), 120, 'reduce');
eval { die "expected\n" };
is($@, "expected\n", 'eval and die');
done_testing();
