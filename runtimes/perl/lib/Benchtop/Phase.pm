package Benchtop::Phase;
# Loaded by benchtop's Perl runtime before the program (`perl -MBenchtop::Phase test.pl`), never
# by programs. It notes whether the program got past compilation: when compilation fails,
# zeroperl only reports "failed", while `perl test.pl` exits with the status of the failure
# (255, or the errno of a die in BEGIN). CHECK blocks still run after a failed compilation, with
# that status in $? (ours last, as it was compiled first; even after another CHECK dies); INIT
# blocks run only when the program starts (ours first).
#
# The program can write the marker too (it is a file), so the host keeps every write in order and
# reads it when the interpreter returns (runtimes/perl/zeroperl.ts, PhaseMarker): nothing written
# later counts, and "running" once written stays written. What is here resists a program that has
# read it: a lexical sub (a named one could be redefined by the program's BEGIN), syswrite (print
# would add the program's $\ and $,), and an absolute path in a directory of its own that the
# program cannot rename or empty.
my $file = '/.benchtop/phase';
my $note = sub {
    my ($phase) = @_;
    local ($!, $@);
    if (open my $fh, '>', $file) {
        syswrite $fh, $phase;
        close $fh;
    }
    return;
};

CHECK { $note->("compiled $?") }
INIT { $note->('running') }

1;
