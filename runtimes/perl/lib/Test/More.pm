package Test::More;
# benchtop's stand-in for Test::More (the Perl in WebAssembly, zeroperl, does not bundle it).
#
# Written for benchtop, not copied from Test-Simple: a small, readable module with the subset of
# Test::More that test programs use (ok, is, isnt, like, unlike, cmp_ok, is_deeply, pass, fail,
# can_ok, isa_ok, new_ok, diag, note, explain, plan, done_testing, skip, subtest, BAIL_OUT,
# eq_array, eq_hash, eq_set, $TODO). Its output imitates Test::More 1.302 line for line:
#   stdout  "ok 1 - name" / "not ok 2 - name", the plan "1..N"
#   stderr  "#   Failed test 'name'" / "#   at test.pl line 12." and the got/expected lines,
#           "# Looks like you failed 1 test of 3." at the end
# and so does its exit code: the number of failed tests (at most 254), 255 when the plan was not
# met, 254 when tests ran without a plan or done_testing(), and a die's own code when it died.
# Known difference: the real module writes through its own unbuffered copies of STDOUT and
# STDERR, so its lines can overtake a program's buffered prints; here they keep program order.
use strict;
use warnings;
use Scalar::Util ();

our $VERSION = '1.302190';
our $TODO;
our @EXPORT = qw(
  ok use_ok require_ok is isnt like unlike is_deeply cmp_ok skip todo_skip pass fail
  eq_array eq_hash eq_set plan done_testing can_ok isa_ok new_ok diag note explain subtest BAIL_OUT
);

# Test::Builder's $Level: how many frames above the Test::More function the test is reported at.
$Test::Builder::Level = 1 unless defined $Test::Builder::Level;

# One state per running test "hub": the program's, and one per open subtest.
sub _new_state { return { count => 0, failed => 0, plan => undef, done => undef, indent => '' } }
my $State = _new_state();
my $Ended = 0;
my $BailedOut = 0;

sub import {
    my ($class, @args) = @_;
    my $caller = caller;
    my @names;
    while (@args) {
        my $arg = shift @args;
        if    ($arg eq 'tests')    { plan(tests => shift @args) }
        elsif ($arg eq 'skip_all') { plan(skip_all => shift @args) }
        elsif ($arg eq 'no_plan')  { plan('no_plan') }
        elsif ($arg eq 'import')   { push @names, @{ shift @args } }
        elsif ($arg eq 'no_diag')  { }
        else { die "Unknown option: $arg\n" }
    }
    my $import_all = !@names;
    @names = @EXPORT unless @names;
    no strict 'refs';
    for my $name (@names) {
        if ($name eq '$TODO') { next }
        my $negate = $name =~ s/^!//;
        next if $negate;
        die qq{"$name" is not exported by the Test::More module\n} unless grep { $_ eq $name } @EXPORT;
        *{"${caller}::$name"} = \&{"Test::More::$name"};
    }
    *{"${caller}::TODO"} = \$TODO if $import_all || grep { $_ eq '$TODO' } @names;
    return;
}

# --- output -------------------------------------------------------------------------------

sub _print_out { my ($text) = @_; print STDOUT $text }
sub _print_err { my ($text) = @_; print STDERR $text }

# A diagnostic: every line gets "# " (consecutive newlines share one), indented inside subtests.
sub _comment {
    my ($to_stdout, @messages) = @_;
    my $message = join '', map { defined $_ ? $_ : 'undef' } @messages;
    return if $message eq '';
    chomp $message;
    $message =~ s/^/# /;
    $message =~ s/(\n+)/$1# /g;
    $message =~ s/^/$State->{indent}/mg if $State->{indent} ne '';
    $to_stdout ? _print_out("$message\n") : _print_err("$message\n");
    return 0;
}

# Set by each test result: the diagnostics of a failing TODO test go to stdout.
my $Diag_Todo;

sub diag { return _comment(defined _find_todo(scalar caller), @_) }
sub _test_diag { return _comment(defined $Diag_Todo, @_) }
sub note { _comment(1, @_); return 0 }

sub explain {
    require Data::Dumper;
    return map {
        ref $_ ? do {
            my $dumper = Data::Dumper->new([$_]);
            $dumper->Indent(1)->Terse(1)->Sortkeys(1);
            $dumper->Dump;
        } : $_
    } @_;
}

# --- the core: one test result ------------------------------------------------------------

# Where the current test was called from (file, line, package, warning bits), honouring
# $Test::Builder::Level. $extra: frames between the caller of this sub and the public function.
sub _caller_location {
    my ($extra) = @_;
    my $depth = $Test::Builder::Level + ($extra || 0);
    my @frame = caller($depth);
    @frame = caller(1) unless @frame;
    return ($frame[1], $frame[2], $frame[0], $frame[9]);
}

# The $TODO in force: the calling package's (as Test::Builder's find_TODO), else ours.
sub _find_todo {
    my ($package) = @_;
    no strict 'refs';
    return ${"${package}::TODO"} if defined $package && defined ${"${package}::TODO"};
    return $TODO;
}


# Records one result and prints its line (and the "Failed test" diagnostic). $depth: frames
# between the user's call and this sub, beyond the public function itself.
sub _result {
    my ($pass, $name, $depth) = @_;
    my ($file, $at, $package) = _caller_location(1 + ($depth || 0));
    my $todo = _find_todo($package);
    $Diag_Todo = $pass ? undef : $todo;
    $State->{count}++;
    my $number = $State->{count};
    $State->{failed}++ if !$pass && !defined $todo;

    my $line = ($pass ? 'ok' : 'not ok') . " $number";
    my @extra;
    if (defined $name) {
        $name = "$name";
        ($name, @extra) = split /\n\r?/, $name, -1 if index($name, "\n") != -1;
        if (index($name, '#') != -1 || substr($name, -1) eq '\\') {
            $name =~ s/\\/\\\\/g;
            $name =~ s/#/\\#/g;
        }
        $line .= " - $name";
    }
    if (defined $todo) {
        $line .= length $todo ? " # TODO $todo" : ' # TODO';
    }
    my $indent = $State->{indent};
    _print_out("$indent$line\n" . join '', map { "$indent# $_\n" } @extra);

    unless ($pass) {
        my $failed = defined $todo ? 'Failed (TODO)' : 'Failed';
        my $orig = defined $name ? join("\n", $name, @extra) : undef;
        if (defined $orig) { _comment(defined $todo, "  $failed test '$orig'\n  at $file line $at.\n") }
        else               { _comment(defined $todo, "  $failed test at $file line $at.\n") }
    }
    return $pass ? 1 : 0;
}

sub ok ($;$) {
    my ($test, $name) = @_;
    return _result($test ? 1 : 0, $name, 0);
}

sub pass (;$) { return _result(1, $_[0], 0) }
sub fail (;$) { return _result(0, $_[0], 0) }

# --- comparisons --------------------------------------------------------------------------

sub _quote_for {
    my ($type, $value) = @_;
    return 'undef' unless defined $value;
    return ($type eq 'eq' || $type eq 'ne') ? "'$value'" : "$value";
}

sub _is_diag {
    my ($got, $type, $expected) = @_;
    _test_diag(sprintf "%12s: %s\n%12s: %s\n", 'got', _quote_for($type, $got), 'expected', _quote_for($type, $expected));
}

sub _isnt_diag {
    my ($got, $type) = @_;
    _test_diag(sprintf "%12s: %s\n%12s: anything else\n", 'got', _quote_for($type, $got), 'expected');
}

sub _cmp_diag {
    my ($got, $type, $expected) = @_;
    $got = defined $got ? "'$got'" : 'undef';
    $expected = defined $expected ? "'$expected'" : 'undef';
    _test_diag("    $got\n        $type\n    $expected\n");
}

# cmp_ok's comparison, evaluated as the caller would write it ($got OP $expected).
sub _compare {
    my ($got, $op, $expected, $depth) = @_;
    my ($file, $line, undef, $warning_bits) = _caller_location(1 + $depth);
    my $result;
    my $ok = do {
        local ($@, $!, $SIG{__DIE__});
        my $bits = defined $warning_bits ? qq{"\Q$warning_bits\E"} : 'undef';
        my $code = qq{BEGIN {\${^WARNING_BITS} = $bits};\n#line $line "(eval in cmp_ok) $file"\n\$result = (\$got $op \$expected);\n1;\n};
        my $succeeded = eval $code;
        [$succeeded, $@];
    };
    return ($result, @$ok);
}

sub _cmp_ok {
    my ($got, $op, $expected, $name, $depth) = @_;
    die "$op is not a valid comparison operator in cmp_ok()\n" if $op =~ /^(?:=|\+=|\.=|x=|\^=|\|=|\|\|=|&&=|\.\.\.)$/;
    my ($test, $succeeded, $error) = _compare($got, $op, $expected, $depth + 1);
    my $pass = _result($test ? 1 : 0, $name, $depth + 1);
    _test_diag("An error occurred while using $op:\n------------------------------------\n$error\n------------------------------------\n")
        unless $succeeded;
    unless ($pass) {
        if ($op =~ /^(?:eq|==)$/) {
            _is_diag($got, $op, $expected);
        }
        elsif ($op =~ /^(?:ne|!=)$/) {
            no warnings;
            my $looks_equal = ($got eq $expected || $got == $expected)
                && ((defined($got) xor defined($expected)) || (length($got) != length($expected)));
            $looks_equal ? _cmp_diag($got, $op, $expected) : _isnt_diag($got, $op);
        }
        else {
            _cmp_diag($got, $op, $expected);
        }
    }
    return $pass;
}

sub cmp_ok ($$$;$) {
    my ($got, $op, $expected, $name) = @_;
    return _cmp_ok($got, $op, $expected, $name, 0);
}

sub is ($$;$) {
    my ($got, $expected, $name) = @_;
    if (!defined $got || !defined $expected) {
        my $pass = _result((!defined $got && !defined $expected) ? 1 : 0, $name, 0);
        _is_diag($got, 'eq', $expected) unless $pass;
        return $pass;
    }
    return _cmp_ok($got, 'eq', $expected, $name, 0);
}

sub isnt ($$;$) {
    my ($got, $unexpected, $name) = @_;
    if (!defined $got || !defined $unexpected) {
        my $pass = _result((defined $got || defined $unexpected) ? 1 : 0, $name, 0);
        _isnt_diag($got, 'ne') unless $pass;
        return $pass;
    }
    return _cmp_ok($got, 'ne', $unexpected, $name, 0);
}

sub _regex_ok {
    my ($thing, $regex, $matches, $name) = @_;
    my $usable = ref $regex eq 'Regexp' ? $regex
        : (defined $regex && $regex =~ m{^/(.*)/(\w*)$}s) ? do { my ($re, $flags) = ($1, $2); length $flags ? "(?$flags)$re" : $re }
        : undef;
    unless (defined $usable) {
        my $pass = _result(0, $name, 1);
        _test_diag("    '$regex' doesn't look much like a regex to me.");
        return $pass;
    }
    my $test = do { no warnings 'uninitialized'; $thing =~ /$usable/ ? 1 : 0 };
    $test = !$test unless $matches;
    my $pass = _result($test, $name, 1);
    unless ($pass) {
        my $shown = defined $thing ? "'$thing'" : 'undef';
        _test_diag(sprintf "                  %s\n    %13s '%s'\n", $shown, $matches ? "doesn't match" : 'matches', $regex);
    }
    return $pass;
}

sub like ($$;$)   { return _regex_ok($_[0], $_[1], 1, $_[2]) }
sub unlike ($$;$) { return _regex_ok($_[0], $_[1], 0, $_[2]) }

# --- is_deeply ----------------------------------------------------------------------------

my $DNE = bless [], 'Does::Not::Exist';
our @Data_Stack;
our %Refs_Seen;

sub _dne { return ref $_[0] eq ref $DNE }

sub _type {
    my ($thing) = @_;
    return '' unless ref $thing;
    for my $type (qw(Regexp ARRAY HASH REF SCALAR GLOB CODE VSTRING)) {
        return $type if UNIVERSAL::isa($thing, $type);
    }
    return '';
}

sub _equal_nonrefs {
    my ($e1, $e2) = @_;
    return if ref $e1 or ref $e2;
    return defined $e1 ? (defined $e2 && $e1 eq $e2) : !defined $e2;
}

sub _deep_check {
    my ($e1, $e2) = @_;
    local %Refs_Seen = %Refs_Seen;
    my $same_ref = !(!ref $e1 xor !ref $e2);
    my $not_ref = (!ref $e1 and !ref $e2);
    return 0 if defined $e1 xor defined $e2;
    return 1 if !defined $e1 and !defined $e2;
    return 0 if _dne($e1) xor _dne($e2);
    return 1 if $same_ref and $e1 eq $e2;
    if ($not_ref) {
        push @Data_Stack, { type => '', vals => [$e1, $e2] };
        return 0;
    }
    return $Refs_Seen{$e1} eq $e2 if $Refs_Seen{$e1};
    $Refs_Seen{$e1} = "$e2";

    my $type = _type($e1);
    $type = 'DIFFERENT' unless _type($e2) eq $type;
    my $ok;
    if ($type eq 'ARRAY') { $ok = _eq_array($e1, $e2) }
    elsif ($type eq 'HASH') { $ok = _eq_hash($e1, $e2) }
    elsif ($type eq 'REF' || $type eq 'SCALAR') {
        push @Data_Stack, { type => 'REF', vals => [$e1, $e2] };
        $ok = _deep_check($$e1, $$e2);
        pop @Data_Stack if $ok;
    }
    else {
        push @Data_Stack, { type => $type, vals => [$e1, $e2] };
        $ok = 0;
    }
    return $ok;
}

sub _eq_array {
    my ($a1, $a2) = @_;
    return 1 if $a1 eq $a2;
    my $max = $#$a1 > $#$a2 ? $#$a1 : $#$a2;
    for my $i (0 .. $max) {
        my $e1 = $i > $#$a1 ? $DNE : $a1->[$i];
        my $e2 = $i > $#$a2 ? $DNE : $a2->[$i];
        next if _equal_nonrefs($e1, $e2);
        push @Data_Stack, { type => 'ARRAY', idx => $i, vals => [$e1, $e2] };
        my $ok = _deep_check($e1, $e2);
        pop @Data_Stack if $ok;
        return 0 unless $ok;
    }
    return 1;
}

sub _eq_hash {
    my ($a1, $a2) = @_;
    return 1 if $a1 eq $a2;
    my $bigger = keys %$a1 > keys %$a2 ? $a1 : $a2;
    for my $k (keys %$bigger) {
        my $e1 = exists $a1->{$k} ? $a1->{$k} : $DNE;
        my $e2 = exists $a2->{$k} ? $a2->{$k} : $DNE;
        next if _equal_nonrefs($e1, $e2);
        push @Data_Stack, { type => 'HASH', idx => $k, vals => [$e1, $e2] };
        my $ok = _deep_check($e1, $e2);
        pop @Data_Stack if $ok;
        return 0 unless $ok;
    }
    return 1;
}

sub _format_stack {
    my (@stack) = @_;
    my $var = '$FOO';
    my $did_arrow = 0;
    for my $entry (@stack) {
        my $type = $entry->{type} || '';
        my $idx = $entry->{idx};
        if ($type eq 'HASH') { $var .= '->' unless $did_arrow++; $var .= "{$idx}" }
        elsif ($type eq 'ARRAY') { $var .= '->' unless $did_arrow++; $var .= "[$idx]" }
        elsif ($type eq 'REF') { $var = "\${$var}" }
    }
    my @vals = @{ $stack[-1]{vals} }[0, 1];
    (my $got = $var) =~ s/\$FOO/     \$got/;
    (my $expected = $var) =~ s/\$FOO/\$expected/;
    @vals = map { !defined $_ ? 'undef' : _dne($_) ? 'Does not exist' : ref $_ ? "$_" : "'$_'" } @vals;
    my $out = "Structures begin differing at:\n$got = $vals[0]\n$expected = $vals[1]\n";
    $out =~ s/^/    /mg;
    return $out;
}

sub is_deeply {
    unless (@_ == 2 or @_ == 3) {
        my ($file, $line) = _caller_location();
        warn sprintf("is_deeply() takes two or three args, you gave %d.\nThis usually means you passed an array or hash instead \nof a reference to it at %s line %d.\n", scalar @_, $file, $line);
        return _result(0, undef, 0);
    }
    my ($got, $expected, $name) = @_;
    if (!ref $got and !ref $expected) {
        if (!defined $got || !defined $expected) {
            my $pass = _result((!defined $got && !defined $expected) ? 1 : 0, $name, 0);
            _is_diag($got, 'eq', $expected) unless $pass;
            return $pass;
        }
        return _cmp_ok($got, 'eq', $expected, $name, 0);
    }
    if (!ref $got xor !ref $expected) {
        my $pass = _result(0, $name, 0);
        _test_diag(_format_stack({ vals => [$got, $expected] }));
        return $pass;
    }
    local @Data_Stack = ();
    if (_deep_check($got, $expected)) {
        return _result(1, $name, 0);
    }
    my $pass = _result(0, $name, 0);
    _test_diag(_format_stack(@Data_Stack));
    return $pass;
}

sub eq_array { local @Data_Stack = (); return _deep_check(@_) }
sub eq_hash  { local @Data_Stack = (); return _deep_check(@_) }

sub eq_set {
    my ($a1, $a2) = @_;
    return 0 unless @$a1 == @$a2;
    no warnings 'uninitialized';
    return eq_array([grep(ref, @$a1), sort(grep(!ref, @$a1))], [grep(ref, @$a2), sort(grep(!ref, @$a2))]);
}

# --- objects ------------------------------------------------------------------------------

sub can_ok ($@) {
    my ($proto, @methods) = @_;
    my $class = ref $proto || $proto;
    unless ($class) {
        my $pass = _result(0, '->can(...)', 0);
        _test_diag('    can_ok() called with empty class or reference');
        return $pass;
    }
    unless (@methods) {
        my $pass = _result(0, "$class->can(...)", 0);
        _test_diag('    can_ok() called with no methods');
        return $pass;
    }
    my @missing = grep { !eval { $proto->can($_) } } @methods;
    my $name = @methods == 1 ? "$class->can('$methods[0]')" : "$class->can(...)";
    my $pass = _result(!@missing ? 1 : 0, $name, 0);
    _test_diag(map { "    $class->can('$_') failed\n" } @missing);
    return $pass;
}

sub _isa_ok {
    my ($thing, $class, $thing_name, $depth) = @_;
    my $whatami = !defined $thing ? 'undef' : ref $thing ? (Scalar::Util::blessed($thing) ? 'object' : 'reference') : 'class';
    my $result = eval { $thing->isa($class) };
    $result = UNIVERSAL::isa($thing, $class) if $whatami eq 'reference';
    my ($name, $why);
    if (defined $thing_name) {
        $name = "'$thing_name' isa '$class'";
        $why = defined $thing ? "'$thing_name' isn't a '$class'" : "'$thing_name' isn't defined";
    }
    elsif ($whatami eq 'object') {
        my $of = ref $thing;
        $name = "An object of class '$of' isa '$class'";
        $why = "The object of class '$of' isn't a '$class'";
    }
    elsif ($whatami eq 'reference') {
        my $type = ref $thing;
        $name = "A reference of type '$type' isa '$class'";
        $why = "The reference of type '$type' isn't a '$class'";
    }
    elsif ($whatami eq 'undef') {
        $name = "undef isa '$class'";
        $why = "undef isn't defined";
    }
    else {
        $name = "The class (or class-like) '$thing' isa '$class'";
        $why = "The class (or class-like) '$thing' isn't a '$class'";
    }
    my $pass = _result($result ? 1 : 0, $name, $depth);
    _test_diag("    $why\n") unless $pass;
    return $pass;
}

sub isa_ok ($$;$) { return _isa_ok($_[0], $_[1], $_[2], 1) }

sub new_ok {
    die "new_ok() must be given at least a class\n" unless @_;
    my ($class, $args, $object_name) = @_;
    $args ||= [];
    my $obj;
    if (eval { $obj = $class->new(@$args); 1 }) {
        _isa_ok($obj, $class, $object_name, 1);
    }
    else {
        my $error = $@;
        _result(0, (defined $class ? $class : 'undef') . '->new() died', 0);
        _test_diag("    Error was:  $error");
    }
    return $obj;
}

sub require_ok ($) {
    my ($module) = @_;
    my $pack = caller;
    $module = qq['$module'] unless $module =~ /^[A-Za-z_]\w*(?:::\w+)*$/;
    my $ok = eval "package $pack;\nrequire $module;\n1;\n";
    my $error = $@;
    my $pass = _result($ok ? 1 : 0, "require $module;", 0);
    unless ($pass) {
        chomp $error;
        _test_diag("    Tried to require '$module'.\n    Error:  $error\n");
    }
    return $pass;
}

sub use_ok ($;@) {
    my ($module, @imports) = @_;
    my ($pack, $filename, $line) = caller;
    my $code = @imports == 1 && $imports[0] =~ /^\d+(?:\.\d+)?$/
        ? "package $pack;\n#line $line $filename\nuse $module $imports[0];\n1;\n"
        : "package $pack;\n#line $line $filename\nuse $module \@{\$args[0]};\n1;\n";
    my @args = (\@imports);
    my $ok = eval $code;
    my $error = $@;
    my $pass = _result($ok ? 1 : 0, "use $module;", 0);
    unless ($pass) {
        chomp $error;
        _test_diag("    Tried to use '$module'.\n    Error:  $error\n");
    }
    return $pass;
}

# --- plans, skips, subtests, the end ------------------------------------------------------

sub plan {
    my ($cmd, $arg) = @_;
    return unless $cmd;
    die "You tried to plan twice\n" if defined $State->{plan};
    if ($cmd eq 'tests') {
        die "Number of tests must be a positive integer.  You gave it '" . (defined $arg ? $arg : 'undef') . "'\n"
            unless defined $arg && $arg =~ /^\+?\d+$/;
        $State->{plan} = 0 + $arg;
        _print_out("$State->{indent}1..$State->{plan}\n");
    }
    elsif ($cmd eq 'no_plan') {
        $State->{plan} = 'NO PLAN';
    }
    elsif ($cmd eq 'skip_all') {
        $State->{plan} = 'SKIP';
        _print_out("$State->{indent}1..0 # SKIP" . (defined $arg && length $arg ? " $arg" : '') . "\n");
        if ($State->{indent} ne '') {
            $State->{skip_reason} = defined $arg ? $arg : '';
            die { benchtop_subtest_skip_all => 1 };
        }
        exit 0;
    }
    else {
        my @args = grep { defined } ($cmd, $arg);
        die "plan() doesn't understand @args\n";
    }
    return 1;
}

sub done_testing {
    my ($expected) = @_;
    my ($file, $line) = _caller_location();
    if ($State->{done}) {
        _result(0, "done_testing() was already called at $State->{done}[0] line $State->{done}[1]", 0);
        return;
    }
    $State->{done} = [$file, $line];
    my $plan = $State->{plan};
    if (defined $expected) {
        if (!defined $plan || $plan eq 'NO PLAN') {
            $State->{plan} = $expected;
            _print_out("$State->{indent}1..$expected\n");
        }
        elsif ($plan ne 'SKIP' && $expected != $plan) {
            _result(0, "planned to run $plan but done_testing() expects $expected", 0);
        }
    }
    else {
        if (!defined $plan || $plan eq 'NO PLAN') {
            $State->{plan} = $State->{count};
            _print_out("$State->{indent}1..$State->{count}\n");
        }
        elsif ($plan ne 'SKIP' && $State->{count} != $plan) {
            _result(0, "planned to run $plan but done_testing() expects $State->{count}", 0);
        }
    }
    return 1;
}

sub skip {
    my ($why, $how_many) = @_;
    $how_many = 1 unless defined $how_many;
    if ($how_many =~ /\D/) {
        my ($file, $line) = _caller_location();
        warn "skip() was passed a non-numeric number of tests.  Did you get the arguments backwards? at $file line $line.\n";
        $how_many = 1;
    }
    $why = '' unless defined $why;
    for (1 .. $how_many) {
        $State->{count}++;
        _print_out("$State->{indent}ok $State->{count} # skip" . (length $why ? " $why" : '') . "\n");
    }
    no warnings 'exiting';
    last SKIP;
}

sub todo_skip {
    my ($why, $how_many) = @_;
    $how_many = 1 unless defined $how_many;
    $why = '' unless defined $why;
    for (1 .. $how_many) {
        $State->{count}++;
        _print_out("$State->{indent}not ok $State->{count} # TODO & SKIP $why\n");
    }
    no warnings 'exiting';
    last TODO;
}

sub BAIL_OUT {
    my ($reason) = @_;
    $BailedOut = 1;
    _print_out('Bail out!' . (defined $reason && length $reason ? "  $reason" : '') . "\n");
    exit 255;
}

sub subtest {
    my ($name, $code, @args) = @_;
    die "subtest()'s second argument must be a code ref\n" unless ref $code eq 'CODE';
    my $parent = $State;
    _comment(1, "Subtest: $name");
    my $child = _new_state();
    $child->{indent} = $parent->{indent} . '    ';
    $State = $child;
    my ($ok, $error);
    {
        local $Test::Builder::Level = 1;
        $ok = eval { $code->(@args); 1 };
        $error = $@;
    }
    my $skipped = !$ok && ref $error eq 'HASH' && $error->{benchtop_subtest_skip_all};
    ($ok, $error) = (1, undef) if $skipped;
    if ($ok && !$skipped) {
        if (!$child->{count}) {
            _print_out("$child->{indent}1..0\n") unless defined $child->{plan};
            _comment(0, 'No tests run!');
            $name = qq{No tests run for subtest "$name"};
        }
        else {
            if (!defined $child->{plan} || $child->{plan} eq 'NO PLAN') {
                _print_out("$child->{indent}1..$child->{count}\n") unless $child->{done};
                $child->{plan} = $child->{count};
            }
            _ending($child, 0);
        }
    }
    $State = $parent;
    die $error unless $ok;
    if ($skipped) {
        $State->{count}++;
        my $why = $child->{skip_reason};
        _print_out("$State->{indent}ok $State->{count} # skip" . (length $why ? " $why" : '') . "\n");
        return 1;
    }
    my $passing = $child->{count} && !$child->{failed} && $child->{plan} == $child->{count};
    return _result($passing ? 1 : 0, $name, 0);
}

# The summary of one hub (the program, or a subtest) and its exit code, as Test::Builder's
# _ending: returns the new exit code, or undef to leave it as it is.
sub _ending {
    my ($state, $real_exit_code) = @_;
    my $plan = $state->{plan};
    my $count = $state->{count};
    my $failed = $state->{failed};
    my $say = sub { _comment(0, @_) };

    # done_testing() with no test at all: the plan "1..0", nothing more, and a failing exit.
    return 255 if defined $plan && $plan eq '0' && !$count && !$real_exit_code;
    return undef unless defined $plan || $count || $failed;

    if (!defined $plan && $count) {
        $say->("Tests were run but no plan was declared and done_testing() was not seen.");
        if ($real_exit_code) {
            $say->("Looks like your test exited with $real_exit_code just after $count.\n");
            return undef;
        }
        return $failed ? ($failed <= 254 ? $failed : 254) : 254;
    }
    if ($real_exit_code && !$count) {
        $say->("Looks like your test exited with $real_exit_code before it could output anything.");
        return undef;
    }
    return undef if defined $plan && $plan eq 'SKIP';
    if (!$count) {
        $say->('No tests run!');
        return 255;
    }
    if ($real_exit_code) {
        $say->("Looks like your test exited with $real_exit_code just after $count.\n");
        return undef;
    }
    if ($plan eq 'NO PLAN') {
        $plan = $count;
        _print_out("$state->{indent}1..$count\n");
    }
    my $num_extra = $count - $plan;
    if ($num_extra != 0) {
        my $s = $plan == 1 ? '' : 's';
        $say->("Looks like you planned $plan test$s but ran $count.\n");
    }
    if ($failed) {
        my $s = $failed == 1 ? '' : 's';
        my $qualifier = $num_extra == 0 ? '' : ' run';
        $say->("Looks like you failed $failed test$s of $count$qualifier.\n");
    }
    return $failed ? ($failed <= 254 ? $failed : 254) : $num_extra != 0 ? 255 : 0;
}

# Runs after the program's own END blocks (this module is loaded before they are compiled).
END {
    unless ($Ended++ || $BailedOut) {
        my $new = _ending($State, $?);
        $? = $new if defined $new && !$?;
    }
}

1;
