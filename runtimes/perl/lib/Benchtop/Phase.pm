package Benchtop::Phase;
# Loaded by benchtop's Perl runtime before the program (`perl -MBenchtop::Phase test.pl`), never
# by programs. It notes whether the program got past compilation: when compilation fails,
# zeroperl only reports "failed", while `perl test.pl` exits with the status of the failure
# (255, or the errno of a die in BEGIN). CHECK blocks still run after a failed compilation, with
# that status in $?; INIT blocks run only when the program starts.
my $file = '/usr/share/benchtop/phase';

sub note_phase {
    my ($phase) = @_;
    local ($!, $@);
    if (open my $fh, '>', $file) {
        print {$fh} $phase;
        close $fh;
    }
    return;
}

CHECK { note_phase("compiled $?") }
INIT { note_phase('running') }

1;
