package POSIX;
# benchtop's stand-in for POSIX (zeroperl, the Perl in WebAssembly, has no POSIX module: it is
# XS). Written for benchtop: the POSIX functions and constants that test programs use, in plain
# Perl, with the values of x86-64 Linux (the official sandbox's platform), and the real module's
# export lists, so that `use POSIX;`, `use POSIX qw(floor ceil);` and `use POSIX ':math_h';`
# import the same names. Implemented: the math functions (floor, ceil, fmod, pow, round, trunc,
# isnan, …), the <float.h>, <limits.h>, <math.h>, <locale.h>, <unistd.h>, <fcntl.h> and
# <sys/wait.h> constants, errno constants (this Perl's own numbers, like $!), strftime, mktime,
# difftime, ctime, asctime, clock, strtol, strtoul, strtod, setlocale, localeconv, INT_MAX and
# friends. Every other POSIX name exists but dies when called, naming itself (a program that
# needs it fails here, where the official sandbox may pass: see docs/fidelity.md).
use strict;
use warnings;
no warnings 'redefine';
require Exporter;
our @ISA = ('Exporter');
our $VERSION = '1.97';
our %SIGRT;

our @EXPORT = qw(
    %SIGRT ARG_MAX B0 B110 B1200 B134 B150 B1800 B19200 B200 B2400 B300 B38400 B4800 B50 B600 B75
    B9600 BRKINT BUFSIZ CHAR_BIT CHAR_MAX CHAR_MIN CHILD_MAX CLK_TCK CLOCAL CLOCKS_PER_SEC CREAD CS5
    CS6 CS7 CS8 CSIZE CSTOPB DBL_DIG DBL_EPSILON DBL_MANT_DIG DBL_MAX DBL_MAX_10_EXP DBL_MAX_EXP
    DBL_MIN DBL_MIN_10_EXP DBL_MIN_EXP E2BIG EACCES EADDRINUSE EADDRNOTAVAIL EAFNOSUPPORT EAGAIN
    EALREADY EBADF EBADMSG EBUSY ECANCELED ECHILD ECHO ECHOE ECHOK ECHONL ECONNABORTED ECONNREFUSED
    ECONNRESET EDEADLK EDESTADDRREQ EDOM EDQUOT EEXIST EFAULT EFBIG EHOSTDOWN EHOSTUNREACH EIDRM
    EILSEQ EINPROGRESS EINTR EINVAL EIO EISCONN EISDIR ELOOP EMFILE EMLINK EMSGSIZE ENAMETOOLONG
    ENETDOWN ENETRESET ENETUNREACH ENFILE ENOBUFS ENODATA ENODEV ENOENT ENOEXEC ENOLCK ENOLINK
    ENOMEM ENOMSG ENOPROTOOPT ENOSPC ENOSR ENOSTR ENOSYS ENOTBLK ENOTCONN ENOTDIR ENOTEMPTY
    ENOTRECOVERABLE ENOTSOCK ENOTSUP ENOTTY ENXIO EOF EOPNOTSUPP EOTHER EOVERFLOW EOWNERDEAD EPERM
    EPFNOSUPPORT EPIPE EPROCLIM EPROTO EPROTONOSUPPORT EPROTOTYPE ERANGE EREMOTE ERESTART EROFS
    ESHUTDOWN ESOCKTNOSUPPORT ESPIPE ESRCH ESTALE ETIME ETIMEDOUT ETOOMANYREFS ETXTBSY EUSERS
    EWOULDBLOCK EXDEV EXIT_FAILURE EXIT_SUCCESS FD_CLOEXEC FILENAME_MAX FLT_DIG FLT_EPSILON
    FLT_MANT_DIG FLT_MAX FLT_MAX_10_EXP FLT_MAX_EXP FLT_MIN FLT_MIN_10_EXP FLT_MIN_EXP FLT_RADIX
    FLT_ROUNDS FP_ILOGB0 FP_ILOGBNAN FP_INFINITE FP_NAN FP_NORMAL FP_SUBNORMAL FP_ZERO F_DUPFD
    F_GETFD F_GETFL F_GETLK F_OK F_RDLCK F_SETFD F_SETFL F_SETLK F_SETLKW F_UNLCK F_WRLCK HUGE_VAL
    HUPCL ICANON ICRNL IEXTEN IGNBRK IGNCR IGNPAR INFINITY INLCR INPCK INT_MAX INT_MIN ISIG ISTRIP
    IXOFF IXON LC_ADDRESS LC_ALL LC_COLLATE LC_CTYPE LC_IDENTIFICATION LC_MEASUREMENT LC_MESSAGES
    LC_MONETARY LC_NUMERIC LC_PAPER LC_SYNTAX LC_TELEPHONE LC_TIME LC_TOD LDBL_DIG LDBL_EPSILON
    LDBL_MANT_DIG LDBL_MAX LDBL_MAX_10_EXP LDBL_MAX_EXP LDBL_MIN LDBL_MIN_10_EXP LDBL_MIN_EXP
    LINK_MAX LONG_MAX LONG_MIN L_ctermid L_cuserid MAX_CANON MAX_INPUT MB_CUR_MAX MB_LEN_MAX M_1_PI
    M_2_PI M_2_SQRTPI M_E M_LN10 M_LN2 M_LOG10E M_LOG2E M_PI M_PI_2 M_PI_4 M_SQRT1_2 M_SQRT2
    NAME_MAX NAN NCCS NDEBUG NGROUPS_MAX NOFLSH NULL OPEN_MAX OPOST O_ACCMODE O_APPEND O_CREAT
    O_EXCL O_NOCTTY O_NONBLOCK O_RDONLY O_RDWR O_TRUNC O_WRONLY PARENB PARMRK PARODD PATH_MAX
    PIPE_BUF RAND_MAX R_OK SA_NOCLDSTOP SA_NOCLDWAIT SA_NODEFER SA_ONSTACK SA_RESETHAND SA_RESTART
    SA_SIGINFO SCHAR_MAX SCHAR_MIN SEEK_CUR SEEK_END SEEK_SET SHRT_MAX SHRT_MIN SIGABRT SIGALRM
    SIGBUS SIGCHLD SIGCONT SIGFPE SIGHUP SIGILL SIGINT SIGKILL SIGPIPE SIGPOLL SIGPROF SIGQUIT
    SIGRTMAX SIGRTMIN SIGSEGV SIGSTOP SIGSYS SIGTERM SIGTRAP SIGTSTP SIGTTIN SIGTTOU SIGURG SIGUSR1
    SIGUSR2 SIGVTALRM SIGXCPU SIGXFSZ SIG_BLOCK SIG_DFL SIG_ERR SIG_IGN SIG_SETMASK SIG_UNBLOCK
    SSIZE_MAX STDERR_FILENO STDIN_FILENO STDOUT_FILENO STREAM_MAX S_IRGRP S_IROTH S_IRUSR S_IRWXG
    S_IRWXO S_IRWXU S_ISBLK S_ISCHR S_ISDIR S_ISFIFO S_ISGID S_ISREG S_ISUID S_IWGRP S_IWOTH S_IWUSR
    S_IXGRP S_IXOTH S_IXUSR TCIFLUSH TCIOFF TCIOFLUSH TCION TCOFLUSH TCOOFF TCOON TCSADRAIN
    TCSAFLUSH TCSANOW TMP_MAX TOSTOP TZNAME_MAX UCHAR_MAX UINT_MAX ULONG_MAX USHRT_MAX VEOF VEOL
    VERASE VINTR VKILL VMIN VQUIT VSTART VSTOP VSUSP VTIME WEXITSTATUS WIFEXITED WIFSIGNALED
    WIFSTOPPED WNOHANG WSTOPSIG WTERMSIG WUNTRACED W_OK X_OK _PC_CHOWN_RESTRICTED _PC_LINK_MAX
    _PC_MAX_CANON _PC_MAX_INPUT _PC_NAME_MAX _PC_NO_TRUNC _PC_PATH_MAX _PC_PIPE_BUF _PC_VDISABLE
    _POSIX_ARG_MAX _POSIX_CHILD_MAX _POSIX_CHOWN_RESTRICTED _POSIX_JOB_CONTROL _POSIX_LINK_MAX
    _POSIX_MAX_CANON _POSIX_MAX_INPUT _POSIX_NAME_MAX _POSIX_NGROUPS_MAX _POSIX_NO_TRUNC
    _POSIX_OPEN_MAX _POSIX_PATH_MAX _POSIX_PIPE_BUF _POSIX_SAVED_IDS _POSIX_SSIZE_MAX
    _POSIX_STREAM_MAX _POSIX_TZNAME_MAX _POSIX_VDISABLE _POSIX_VERSION _SC_ARG_MAX _SC_CHILD_MAX
    _SC_CLK_TCK _SC_JOB_CONTROL _SC_NGROUPS_MAX _SC_OPEN_MAX _SC_PAGESIZE _SC_SAVED_IDS
    _SC_STREAM_MAX _SC_TZNAME_MAX _SC_VERSION _exit abort access acos asctime asin assert atan
    atexit atof atoi atol bsearch calloc ceil cfgetispeed cfgetospeed cfsetispeed cfsetospeed
    clearerr clock cosh creat ctermid ctime cuserid difftime div dup dup2 errno execl execle execlp
    execv execve execvp fabs fclose fdopen feof ferror fflush fgetc fgetpos fgets floor fmod fopen
    fpathconf fprintf fputc fputs fread free freopen frexp fscanf fseek fsetpos fstat fsync ftell
    fwrite getchar getcwd getegid getenv geteuid getgid getgroups getpid gets getuid isatty labs
    ldexp ldiv localeconv log10 longjmp lseek malloc mblen mbstowcs mbtowc memchr memcmp memcpy
    memmove memset mkfifo mktime modf offsetof pathconf pause perror pow putc putchar puts qsort
    raise realloc remove rewind scanf setbuf setgid setjmp setlocale setpgid setsid setuid setvbuf
    sigaction siglongjmp signal sigpending sigprocmask sigsetjmp sigsuspend sinh sscanf stderr stdin
    stdout strcat strchr strcmp strcoll strcpy strcspn strerror strftime strlen strncat strncmp
    strncpy strpbrk strrchr strspn strstr strtod strtok strtol strtoul strxfrm sysconf tan tanh
    tcdrain tcflow tcflush tcgetattr tcgetpgrp tcsendbreak tcsetattr tcsetpgrp tmpfile tmpnam
    ttyname tzname tzset uname ungetc vfprintf vprintf vsprintf wcstombs wctomb
);
our @EXPORT_OK = qw(
    BUS_ADRALN BUS_ADRERR BUS_OBJERR CLD_CONTINUED CLD_DUMPED CLD_EXITED CLD_KILLED CLD_STOPPED
    CLD_TRAPPED EAI_AGAIN EAI_BADFLAGS EAI_FAIL EAI_FAMILY EAI_MEMORY EAI_NONAME EAI_OVERFLOW
    EAI_SERVICE EAI_SOCKTYPE EAI_SYSTEM FE_DOWNWARD FE_TONEAREST FE_TOWARDZERO FE_UPWARD FPE_FLTDIV
    FPE_FLTINV FPE_FLTOVF FPE_FLTRES FPE_FLTSUB FPE_FLTUND FPE_INTDIV FPE_INTOVF ILL_BADSTK
    ILL_COPROC ILL_ILLADR ILL_ILLOPC ILL_ILLOPN ILL_ILLTRP ILL_PRVOPC ILL_PRVREG Inf L_tmpnam
    MSG_CTRUNC MSG_DONTROUTE MSG_EOR MSG_OOB MSG_PEEK MSG_TRUNC MSG_WAITALL NaN POLL_ERR POLL_HUP
    POLL_IN POLL_MSG POLL_OUT POLL_PRI PRIO_PGRP PRIO_PROCESS PRIO_USER SEGV_ACCERR SEGV_MAPERR
    SI_ASYNCIO SI_MESGQ SI_QUEUE SI_TIMER SI_USER TRAP_BRKPT TRAP_TRACE abs acosh alarm asinh atan2
    atanh cbrt chdir chmod chown close closedir copysign cos erf erfc exit exp exp2 expm1 fcntl fdim
    fegetround fesetround fileno fma fmax fmin fork fpclassify getc getgrgid getgrnam getlogin
    getpayload getpgrp getppid getpwnam getpwuid gmtime hypot ilogb isfinite isgreater
    isgreaterequal isinf isless islessequal islessgreater isnan isnormal issignaling isunordered j0
    j1 jn kill lchown lgamma link localtime log log1p log2 logb lrint lround mkdir nan nearbyint
    nextafter nexttoward nice open opendir pipe printf rand read readdir remainder remquo rename
    rewinddir rint rmdir round scalbn setpayload setpayloadsig signbit sin sleep sprintf sqrt srand
    stat strtold system tgamma time times trunc umask unlink utime wait waitpid write y0 y1 yn
);
our %EXPORT_TAGS = (
  assert_h => [qw(
    NDEBUG assert
  )],
  ctype_h => [qw(
   
  )],
  dirent_h => [qw(
   
  )],
  errno_h => [qw(
    E2BIG EACCES EADDRINUSE EADDRNOTAVAIL EAFNOSUPPORT EAGAIN EALREADY EBADF EBADMSG EBUSY ECANCELED
    ECHILD ECONNABORTED ECONNREFUSED ECONNRESET EDEADLK EDESTADDRREQ EDOM EDQUOT EEXIST EFAULT EFBIG
    EHOSTDOWN EHOSTUNREACH EIDRM EILSEQ EINPROGRESS EINTR EINVAL EIO EISCONN EISDIR ELOOP EMFILE
    EMLINK EMSGSIZE ENAMETOOLONG ENETDOWN ENETRESET ENETUNREACH ENFILE ENOBUFS ENODATA ENODEV ENOENT
    ENOEXEC ENOLCK ENOLINK ENOMEM ENOMSG ENOPROTOOPT ENOSPC ENOSR ENOSTR ENOSYS ENOTBLK ENOTCONN
    ENOTDIR ENOTEMPTY ENOTRECOVERABLE ENOTSOCK ENOTSUP ENOTTY ENXIO EOPNOTSUPP EOTHER EOVERFLOW
    EOWNERDEAD EPERM EPFNOSUPPORT EPIPE EPROCLIM EPROTO EPROTONOSUPPORT EPROTOTYPE ERANGE EREMOTE
    ERESTART EROFS ESHUTDOWN ESOCKTNOSUPPORT ESPIPE ESRCH ESTALE ETIME ETIMEDOUT ETOOMANYREFS
    ETXTBSY EUSERS EWOULDBLOCK EXDEV errno
  )],
  fcntl_h => [qw(
    FD_CLOEXEC F_DUPFD F_GETFD F_GETFL F_GETLK F_RDLCK F_SETFD F_SETFL F_SETLK F_SETLKW F_UNLCK
    F_WRLCK O_ACCMODE O_APPEND O_CREAT O_EXCL O_NOCTTY O_NONBLOCK O_RDONLY O_RDWR O_TRUNC O_WRONLY
    SEEK_CUR SEEK_END SEEK_SET S_IRGRP S_IROTH S_IRUSR S_IRWXG S_IRWXO S_IRWXU S_ISBLK S_ISCHR
    S_ISDIR S_ISFIFO S_ISGID S_ISREG S_ISUID S_IWGRP S_IWOTH S_IWUSR creat
  )],
  fenv_h => [qw(
    FE_DOWNWARD FE_TONEAREST FE_TOWARDZERO FE_UPWARD fegetround fesetround
  )],
  float_h => [qw(
    DBL_DIG DBL_EPSILON DBL_MANT_DIG DBL_MAX DBL_MAX_10_EXP DBL_MAX_EXP DBL_MIN DBL_MIN_10_EXP
    DBL_MIN_EXP FLT_DIG FLT_EPSILON FLT_MANT_DIG FLT_MAX FLT_MAX_10_EXP FLT_MAX_EXP FLT_MIN
    FLT_MIN_10_EXP FLT_MIN_EXP FLT_RADIX FLT_ROUNDS LDBL_DIG LDBL_EPSILON LDBL_MANT_DIG LDBL_MAX
    LDBL_MAX_10_EXP LDBL_MAX_EXP LDBL_MIN LDBL_MIN_10_EXP LDBL_MIN_EXP
  )],
  grp_h => [qw(
   
  )],
  limits_h => [qw(
    ARG_MAX CHAR_BIT CHAR_MAX CHAR_MIN CHILD_MAX INT_MAX INT_MIN LINK_MAX LONG_MAX LONG_MIN
    MAX_CANON MAX_INPUT MB_LEN_MAX NAME_MAX NGROUPS_MAX OPEN_MAX PATH_MAX PIPE_BUF SCHAR_MAX
    SCHAR_MIN SHRT_MAX SHRT_MIN SSIZE_MAX STREAM_MAX TZNAME_MAX UCHAR_MAX UINT_MAX ULONG_MAX
    USHRT_MAX _POSIX_ARG_MAX _POSIX_CHILD_MAX _POSIX_LINK_MAX _POSIX_MAX_CANON _POSIX_MAX_INPUT
    _POSIX_NAME_MAX _POSIX_NGROUPS_MAX _POSIX_OPEN_MAX _POSIX_PATH_MAX _POSIX_PIPE_BUF
    _POSIX_SSIZE_MAX _POSIX_STREAM_MAX _POSIX_TZNAME_MAX
  )],
  locale_h => [qw(
    LC_ADDRESS LC_ALL LC_COLLATE LC_CTYPE LC_IDENTIFICATION LC_MEASUREMENT LC_MESSAGES LC_MONETARY
    LC_NUMERIC LC_PAPER LC_SYNTAX LC_TELEPHONE LC_TIME LC_TOD NULL localeconv setlocale
  )],
  math_h => [qw(
    FP_ILOGB0 FP_ILOGBNAN FP_INFINITE FP_NAN FP_NORMAL FP_SUBNORMAL FP_ZERO HUGE_VAL INFINITY M_1_PI
    M_2_PI M_2_SQRTPI M_E M_LN10 M_LN2 M_LOG10E M_LOG2E M_PI M_PI_2 M_PI_4 M_SQRT1_2 M_SQRT2 NAN
    acos asin atan ceil cosh fabs floor fmod frexp ldexp log10 modf pow sinh tan tanh
  )],
  math_h_c99 => [qw(
    FP_ILOGB0 FP_ILOGBNAN FP_INFINITE FP_NAN FP_NORMAL FP_SUBNORMAL FP_ZERO HUGE_VAL INFINITY Inf
    M_1_PI M_2_PI M_2_SQRTPI M_E M_LN10 M_LN2 M_LOG10E M_LOG2E M_PI M_PI_2 M_PI_4 M_SQRT1_2 M_SQRT2
    NAN NaN acos acosh asin asinh atan atanh cbrt ceil copysign cosh erf erfc exp2 expm1 fabs fdim
    floor fma fmax fmin fmod fpclassify frexp hypot ilogb isfinite isgreater isgreaterequal isinf
    isless islessequal islessgreater isnan isnormal isunordered j0 j1 jn ldexp lgamma log10 log1p
    log2 logb lrint lround modf nan nearbyint nextafter nexttoward pow remainder remquo rint round
    scalbn signbit sinh tan tanh tgamma trunc y0 y1 yn
  )],
  nan_payload => [qw(
    getpayload issignaling setpayload setpayloadsig
  )],
  netdb_h => [qw(
    EAI_AGAIN EAI_BADFLAGS EAI_FAIL EAI_FAMILY EAI_MEMORY EAI_NONAME EAI_OVERFLOW EAI_SERVICE
    EAI_SOCKTYPE EAI_SYSTEM
  )],
  pwd_h => [qw(
   
  )],
  setjmp_h => [qw(
    longjmp setjmp siglongjmp sigsetjmp
  )],
  signal_h => [qw(
    %SIGRT SA_NOCLDSTOP SA_NOCLDWAIT SA_NODEFER SA_ONSTACK SA_RESETHAND SA_RESTART SA_SIGINFO
    SIGABRT SIGALRM SIGBUS SIGCHLD SIGCONT SIGFPE SIGHUP SIGILL SIGINT SIGKILL SIGPIPE SIGPOLL
    SIGPROF SIGQUIT SIGRTMAX SIGRTMIN SIGSEGV SIGSTOP SIGSYS SIGTERM SIGTRAP SIGTSTP SIGTTIN SIGTTOU
    SIGURG SIGUSR1 SIGUSR2 SIGVTALRM SIGXCPU SIGXFSZ SIG_BLOCK SIG_DFL SIG_ERR SIG_IGN SIG_SETMASK
    SIG_UNBLOCK raise sigaction signal sigpending sigprocmask sigsuspend
  )],
  signal_h_si_code => [qw(
    BUS_ADRALN BUS_ADRERR BUS_OBJERR CLD_CONTINUED CLD_DUMPED CLD_EXITED CLD_KILLED CLD_STOPPED
    CLD_TRAPPED FPE_FLTDIV FPE_FLTINV FPE_FLTOVF FPE_FLTRES FPE_FLTSUB FPE_FLTUND FPE_INTDIV
    FPE_INTOVF ILL_BADSTK ILL_COPROC ILL_ILLADR ILL_ILLOPC ILL_ILLOPN ILL_ILLTRP ILL_PRVOPC
    ILL_PRVREG POLL_ERR POLL_HUP POLL_IN POLL_MSG POLL_OUT POLL_PRI SEGV_ACCERR SEGV_MAPERR
    SI_ASYNCIO SI_MESGQ SI_QUEUE SI_TIMER SI_USER TRAP_BRKPT TRAP_TRACE
  )],
  stdarg_h => [qw(
   
  )],
  stddef_h => [qw(
    NULL offsetof
  )],
  stdio_h => [qw(
    BUFSIZ EOF FILENAME_MAX L_ctermid L_cuserid NULL SEEK_CUR SEEK_END SEEK_SET STREAM_MAX TMP_MAX
    clearerr fclose fdopen feof ferror fflush fgetc fgetpos fgets fopen fprintf fputc fputs fread
    freopen fscanf fseek fsetpos ftell fwrite getchar gets perror putc putchar puts remove rewind
    scanf setbuf setvbuf sscanf stderr stdin stdout tmpfile tmpnam ungetc vfprintf vprintf vsprintf
  )],
  stdlib_h => [qw(
    EXIT_FAILURE EXIT_SUCCESS MB_CUR_MAX NULL RAND_MAX abort atexit atof atoi atol bsearch calloc
    div free getenv labs ldiv malloc mblen mbstowcs mbtowc qsort realloc strtod strtol strtoul
    wcstombs wctomb
  )],
  stdlib_h_c99 => [qw(
    EXIT_FAILURE EXIT_SUCCESS MB_CUR_MAX NULL RAND_MAX abort atexit atof atoi atol bsearch calloc
    div free getenv labs ldiv malloc mblen mbstowcs mbtowc qsort realloc strtod strtol strtold
    strtoul wcstombs wctomb
  )],
  string_h => [qw(
    NULL memchr memcmp memcpy memmove memset strcat strchr strcmp strcoll strcpy strcspn strerror
    strlen strncat strncmp strncpy strpbrk strrchr strspn strstr strtok strxfrm
  )],
  sys_resource_h => [qw(
    PRIO_PGRP PRIO_PROCESS PRIO_USER
  )],
  sys_socket_h => [qw(
    MSG_CTRUNC MSG_DONTROUTE MSG_EOR MSG_OOB MSG_PEEK MSG_TRUNC MSG_WAITALL
  )],
  sys_stat_h => [qw(
    S_IRGRP S_IROTH S_IRUSR S_IRWXG S_IRWXO S_IRWXU S_ISBLK S_ISCHR S_ISDIR S_ISFIFO S_ISGID S_ISREG
    S_ISUID S_IWGRP S_IWOTH S_IWUSR S_IXGRP S_IXOTH S_IXUSR fstat mkfifo
  )],
  sys_times_h => [qw(
   
  )],
  sys_types_h => [qw(
   
  )],
  sys_utsname_h => [qw(
    uname
  )],
  sys_wait_h => [qw(
    WEXITSTATUS WIFEXITED WIFSIGNALED WIFSTOPPED WNOHANG WSTOPSIG WTERMSIG WUNTRACED
  )],
  termios_h => [qw(
    B0 B110 B1200 B134 B150 B1800 B19200 B200 B2400 B300 B38400 B4800 B50 B600 B75 B9600 BRKINT
    CLOCAL CREAD CS5 CS6 CS7 CS8 CSIZE CSTOPB ECHO ECHOE ECHOK ECHONL HUPCL ICANON ICRNL IEXTEN
    IGNBRK IGNCR IGNPAR INLCR INPCK ISIG ISTRIP IXOFF IXON NCCS NOFLSH OPOST PARENB PARMRK PARODD
    TCIFLUSH TCIOFF TCIOFLUSH TCION TCOFLUSH TCOOFF TCOON TCSADRAIN TCSAFLUSH TCSANOW TOSTOP VEOF
    VEOL VERASE VINTR VKILL VMIN VQUIT VSTART VSTOP VSUSP VTIME cfgetispeed cfgetospeed cfsetispeed
    cfsetospeed tcdrain tcflow tcflush tcgetattr tcsendbreak tcsetattr
  )],
  time_h => [qw(
    CLK_TCK CLOCKS_PER_SEC NULL asctime clock ctime difftime mktime strftime tzname tzset
  )],
  unistd_h => [qw(
    F_OK NULL R_OK SEEK_CUR SEEK_END SEEK_SET STDERR_FILENO STDIN_FILENO STDOUT_FILENO W_OK X_OK
    _PC_CHOWN_RESTRICTED _PC_LINK_MAX _PC_MAX_CANON _PC_MAX_INPUT _PC_NAME_MAX _PC_NO_TRUNC
    _PC_PATH_MAX _PC_PIPE_BUF _PC_VDISABLE _POSIX_CHOWN_RESTRICTED _POSIX_JOB_CONTROL
    _POSIX_NO_TRUNC _POSIX_SAVED_IDS _POSIX_VDISABLE _POSIX_VERSION _SC_ARG_MAX _SC_CHILD_MAX
    _SC_CLK_TCK _SC_JOB_CONTROL _SC_NGROUPS_MAX _SC_OPEN_MAX _SC_PAGESIZE _SC_SAVED_IDS
    _SC_STREAM_MAX _SC_TZNAME_MAX _SC_VERSION _exit access ctermid cuserid dup dup2 execl execle
    execlp execv execve execvp fpathconf fsync getcwd getegid geteuid getgid getgroups getpid getuid
    isatty lseek pathconf pause setgid setpgid setsid setuid sysconf tcgetpgrp tcsetpgrp ttyname
  )],
  utime_h => [qw(
   
  )],
);

my %IMPLEMENTED;
sub _define {
    my ($name, $code) = @_;
    no strict 'refs';
    *{"POSIX::$name"} = $code;
    $IMPLEMENTED{$name} = 1;
}
sub _constants {
    my (%values) = @_;
    while (my ($name, $value) = each %values) {
        my $v = $value;
        _define($name, sub () { $v });
    }
}

my $INF = 9**9**9;
my $NAN = $INF - $INF;
my $NEGATIVE_ZERO = -1 / $INF;

# C's integral results are doubles: a zero from a negative argument is -0 (printed "-0").
sub _signed_zero { my ($result, $x) = @_; return $result == 0 && $x < 0 ? $NEGATIVE_ZERO : $result }

# C's long results (lround, lrint): out of range gives LONG_MIN on x86-64.
sub _to_long { my ($x) = @_; return ($x != $x || $x >= 2**63 || $x < -2**63) ? -9223372036854775807 - 1 : int($x) }

# --- <limits.h>, <float.h>, <stdlib.h>, <stdio.h>, <unistd.h>, <time.h> (x86-64 Linux) ----
_constants(
    CHAR_BIT => 8, CHAR_MAX => 127, CHAR_MIN => -128, SCHAR_MAX => 127, SCHAR_MIN => -128, UCHAR_MAX => 255,
    SHRT_MAX => 32767, SHRT_MIN => -32768, USHRT_MAX => 65535,
    INT_MAX => 2147483647, INT_MIN => -2147483648, UINT_MAX => 4294967295,
    LONG_MAX => 9223372036854775807, LONG_MIN => -9223372036854775807 - 1, ULONG_MAX => 18446744073709551615,
    SSIZE_MAX => 9223372036854775807, MB_LEN_MAX => 16, MB_CUR_MAX => 1,
    PATH_MAX => 4096, NAME_MAX => 255, PIPE_BUF => 4096, ARG_MAX => 131072, NGROUPS_MAX => 65536, TZNAME_MAX => 6,
    LINK_MAX => 127, MAX_CANON => 255, MAX_INPUT => 255, OPEN_MAX => 1024, CHILD_MAX => 999, STREAM_MAX => 16,
    _POSIX_ARG_MAX => 4096, _POSIX_CHILD_MAX => 25, _POSIX_LINK_MAX => 8, _POSIX_MAX_CANON => 255,
    _POSIX_MAX_INPUT => 255, _POSIX_NAME_MAX => 14, _POSIX_NGROUPS_MAX => 8, _POSIX_OPEN_MAX => 20,
    _POSIX_PATH_MAX => 256, _POSIX_PIPE_BUF => 512, _POSIX_SSIZE_MAX => 32767, _POSIX_STREAM_MAX => 8,
    _POSIX_TZNAME_MAX => 6,
    DBL_DIG => 15, DBL_MANT_DIG => 53, DBL_MAX_10_EXP => 308, DBL_MAX_EXP => 1024, DBL_MIN_10_EXP => -307,
    DBL_MIN_EXP => -1021, FLT_DIG => 6, FLT_MANT_DIG => 24, FLT_MAX_10_EXP => 38, FLT_MAX_EXP => 128,
    FLT_MIN_10_EXP => -37, FLT_MIN_EXP => -125, FLT_RADIX => 2, FLT_ROUNDS => 1,
    EXIT_SUCCESS => 0, EXIT_FAILURE => 1, RAND_MAX => 2147483647, EOF => -1, BUFSIZ => 8192,
    FILENAME_MAX => 4096, TMP_MAX => 238328, L_tmpnam => 20, L_ctermid => 9, L_cuserid => 9,
    SEEK_SET => 0, SEEK_CUR => 1, SEEK_END => 2, STDIN_FILENO => 0, STDOUT_FILENO => 1, STDERR_FILENO => 2,
    F_OK => 0, X_OK => 1, W_OK => 2, R_OK => 4, CLOCKS_PER_SEC => 1000000, CLK_TCK => 100,
    WNOHANG => 1, WUNTRACED => 2,
    LC_CTYPE => 0, LC_NUMERIC => 1, LC_TIME => 2, LC_COLLATE => 3, LC_MONETARY => 4, LC_MESSAGES => 5,
    LC_ALL => 6, LC_PAPER => 7, LC_NAME => 8, LC_ADDRESS => 9, LC_TELEPHONE => 10, LC_MEASUREMENT => 11,
    LC_IDENTIFICATION => 12,
    O_RDONLY => 0, O_WRONLY => 1, O_RDWR => 2, O_ACCMODE => 3, O_CREAT => 64, O_EXCL => 128, O_NOCTTY => 256,
    O_TRUNC => 512, O_APPEND => 1024, O_NONBLOCK => 2048,
    S_IRWXU => 448, S_IRUSR => 256, S_IWUSR => 128, S_IXUSR => 64, S_IRWXG => 56, S_IRGRP => 32, S_IWGRP => 16,
    S_IXGRP => 8, S_IRWXO => 7, S_IROTH => 4, S_IWOTH => 2, S_IXOTH => 1, S_ISUID => 2048, S_ISGID => 1024,
    FP_NAN => 0, FP_INFINITE => 1, FP_ZERO => 2, FP_SUBNORMAL => 3, FP_NORMAL => 4,
    FP_ILOGB0 => -2147483648, FP_ILOGBNAN => -2147483648,
    SIGHUP => 1, SIGINT => 2, SIGQUIT => 3, SIGILL => 4, SIGTRAP => 5, SIGABRT => 6, SIGBUS => 7, SIGFPE => 8,
    SIGKILL => 9, SIGUSR1 => 10, SIGSEGV => 11, SIGUSR2 => 12, SIGPIPE => 13, SIGALRM => 14, SIGTERM => 15,
    SIGCHLD => 17, SIGCONT => 18, SIGSTOP => 19, SIGTSTP => 20, SIGTTIN => 21, SIGTTOU => 22,
);
# Floating-point limits and <math.h> constants, computed to the exact double.
_constants(
    DBL_MAX => (2 - 2**-52) * 2**1023, DBL_MIN => 2**-1022, DBL_EPSILON => 2**-52, FLT_EPSILON => 2**-23, FLT_MAX => (2 - 2**-23) * 2**127, FLT_MIN => 2**-126,
    M_E => exp(1), M_LOG2E => 1 / log(2), M_LOG10E => 1 / log(10), M_LN2 => log(2), M_LN10 => log(10),
    M_PI => 4 * atan2(1, 1), M_PI_2 => 2 * atan2(1, 1), M_PI_4 => atan2(1, 1), M_1_PI => 1 / (4 * atan2(1, 1)),
    M_2_PI => 2 / (4 * atan2(1, 1)), M_2_SQRTPI => 2 / sqrt(4 * atan2(1, 1)), M_SQRT2 => sqrt(2), M_SQRT1_2 => sqrt(0.5),
    HUGE_VAL => $INF, INFINITY => $INF, NAN => $NAN, Inf => $INF, NaN => $NAN,
);

# errno constants: this Perl's own numbers (WASI's), so that they compare equal to $!.
{
    require Errno;
    for my $name (grep { /^E[A-Z0-9]+$/ } @EXPORT) {
        my $code = Errno->can($name);
        _define($name, sub () { $code->() }) if $code && eval { $code->(); 1 };
    }
}

# --- <math.h> -----------------------------------------------------------------------------
sub _nan_or_inf { my ($x) = @_; return $x != $x || $x == $INF || $x == -$INF }

_define(floor => sub {
    my ($x) = @_;
    return $x + 0 if _nan_or_inf($x);
    my $i = int($x);
    $i -= 1 if $i > $x;
    return _signed_zero($i, $x);
});
_define(ceil => sub {
    my ($x) = @_;
    return $x + 0 if _nan_or_inf($x);
    my $i = int($x);
    $i += 1 if $i < $x;
    return _signed_zero($i, $x);
});
_define(fmod => sub {
    my ($x, $y) = @_;
    return $NAN if $y == 0 || _nan_or_inf($x) || $y != $y;
    return $x if $y == $INF || $y == -$INF;
    # Exact, as C's fmod: subtract |y| scaled by powers of two (each step is exact).
    my ($r, $ay) = (abs($x), abs($y));
    while ($r >= $ay) {
        my $d = $ay * 2**int(log($r / $ay) / log(2));
        $d /= 2 while $d > $r;
        $d *= 2 while $d * 2 <= $r;
        $r -= $d;
    }
    return $x < 0 ? _signed_zero(-$r, $x) : $r;
});
_define(pow => sub { return $_[0] ** $_[1] });
_define(fabs => sub { return abs($_[0]) });
_define(trunc => sub { my ($x) = @_; return _nan_or_inf($x) ? $x + 0 : _signed_zero(int($x), $x) });
_define(round => sub {
    my ($x) = @_;
    return $x + 0 if _nan_or_inf($x);
    my $i = int($x);
    $i += ($x < 0 ? -1 : 1) if abs($x - $i) >= 0.5;    # halfway cases away from zero
    return _signed_zero($i, $x);
});
_define(lround => sub { return _to_long(POSIX::round($_[0])) });
_define(rint => sub {
    my ($x) = @_;
    return $x + 0 if _nan_or_inf($x);
    my $f = POSIX::floor($x);
    my $d = $x - $f;
    return $d < 0.5 ? $f : $d > 0.5 ? $f + 1 : ($f % 2 == 0 ? $f : $f + 1);
});
_define(nearbyint => sub { return POSIX::rint($_[0]) });
_define(lrint => sub { return _to_long(POSIX::rint($_[0])) });
_define(fmax => sub { my ($x, $y) = @_; return $x != $x ? $y : $y != $y ? $x : $x > $y ? $x : $y });
_define(fmin => sub { my ($x, $y) = @_; return $x != $x ? $y : $y != $y ? $x : $x < $y ? $x : $y });
_define(fdim => sub { my ($x, $y) = @_; return $x > $y ? $x - $y : 0 });
_define(fma => sub { return $_[0] * $_[1] + $_[2] });
_define(isnan => sub { return $_[0] != $_[0] ? 1 : 0 });
_define(isinf => sub { return ($_[0] == $INF || $_[0] == -$INF) ? 1 : 0 });
_define(isfinite => sub { return _nan_or_inf($_[0]) ? 0 : 1 });
_define(isnormal => sub { my ($x) = @_; return (!_nan_or_inf($x) && $x != 0 && abs($x) >= 2**-1022) ? 1 : 0 });
_define(signbit => sub { my ($x) = @_; return ($x < 0 || ($x == 0 && sprintf('%g', $x) =~ /^-/)) ? 1 : 0 });
_define(copysign => sub { my ($x, $y) = @_; return POSIX::signbit($y) ? -abs($x) : abs($x) });
_define(fpclassify => sub {
    my ($x) = @_;
    return 0 if $x != $x;
    return 1 if $x == $INF || $x == -$INF;
    return 2 if $x == 0;
    return abs($x) < 2**-1022 ? 3 : 4;
});
_define(isgreater => sub { return $_[0] > $_[1] ? 1 : 0 });
_define(isgreaterequal => sub { return $_[0] >= $_[1] ? 1 : 0 });
_define(isless => sub { return $_[0] < $_[1] ? 1 : 0 });
_define(islessequal => sub { return $_[0] <= $_[1] ? 1 : 0 });
_define(islessgreater => sub { return ($_[0] < $_[1] || $_[0] > $_[1]) ? 1 : 0 });
_define(isunordered => sub { return ($_[0] != $_[0] || $_[1] != $_[1]) ? 1 : 0 });
_define(nan => sub { return $NAN });
_define(acos => sub { my ($x) = @_; return atan2(sqrt(1 - $x * $x), $x) });
_define(asin => sub { my ($x) = @_; return atan2($x, sqrt(1 - $x * $x)) });
_define(atan => sub { return atan2($_[0], 1) });
_define(tan => sub { return sin($_[0]) / cos($_[0]) });
_define(sinh => sub { my ($x) = @_; return (exp($x) - exp(-$x)) / 2 });
_define(cosh => sub { my ($x) = @_; return (exp($x) + exp(-$x)) / 2 });
_define(tanh => sub {
    my ($x) = @_;
    return $x > 20 ? 1 : $x < -20 ? -1 : do { my $e = exp(2 * $x); ($e - 1) / ($e + 1) };
});
_define(asinh => sub { my ($x) = @_; return log($x + sqrt($x * $x + 1)) });
_define(acosh => sub { my ($x) = @_; return log($x + sqrt($x * $x - 1)) });
_define(atanh => sub { my ($x) = @_; return 0.5 * log((1 + $x) / (1 - $x)) });
_define(log10 => sub { return log($_[0]) / log(10) });
_define(log2 => sub { return log($_[0]) / log(2) });
_define(log1p => sub { my ($x) = @_; my $u = 1 + $x; return $u == 1 ? $x : log($u) * $x / ($u - 1) });
_define(expm1 => sub { my ($x) = @_; my $u = exp($x); return $u == 1 ? $x : $u - 1 == -1 ? -1 : ($u - 1) * $x / log($u) });
_define(exp2 => sub { return 2**$_[0] });
_define(cbrt => sub { my ($x) = @_; return $x < 0 ? -((-$x)**(1 / 3)) : $x**(1 / 3) });
_define(hypot => sub { return sqrt($_[0]**2 + $_[1]**2) });
_define(remainder => sub { my ($x, $y) = @_; return $x - $y * POSIX::rint($x / $y) });
_define(ldexp => sub { return $_[0] * 2**$_[1] });
_define(frexp => sub {
    my ($x) = @_;
    return (0, 0) if $x == 0 || _nan_or_inf($x);
    my $e = POSIX::floor(log(abs($x)) / log(2)) + 1;
    my $m = $x / 2**$e;
    while (abs($m) >= 1) { $m /= 2; $e++ }
    while (abs($m) < 0.5) { $m *= 2; $e-- }
    return ($m, $e);
});
_define(modf => sub {
    my ($x) = @_;
    my $i = int($x);
    return ($x - $i, $i);
});
_define(ilogb => sub { my ($x) = @_; my (undef, $e) = POSIX::frexp($x); return $e - 1 });
_define(logb => sub { return POSIX::ilogb($_[0]) });
_define(scalbn => sub { return $_[0] * 2**$_[1] });

# Perl built-ins that POSIX also exports.
_define(abs => sub { return CORE::abs($_[0]) });
_define(exp => sub { return CORE::exp($_[0]) });
_define(log => sub { return CORE::log($_[0]) });
_define(sqrt => sub { return CORE::sqrt($_[0]) });
_define(sin => sub { return CORE::sin($_[0]) });
_define(cos => sub { return CORE::cos($_[0]) });
_define(atan2 => sub { return CORE::atan2($_[0], $_[1]) });
_define(sprintf => sub { my $format = shift; return CORE::sprintf($format, @_) });
_define(printf => sub { my $format = shift; return CORE::printf($format, @_) });
_define(time => sub { return CORE::time() });
_define(localtime => sub { return CORE::localtime($_[0]) });
_define(gmtime => sub { return CORE::gmtime($_[0]) });
_define(rand => sub { return CORE::rand(@_ ? $_[0] : 1) });
_define(srand => sub { return @_ ? CORE::srand($_[0]) : CORE::srand() });
_define(exit => sub { CORE::exit(@_ ? $_[0] : 0) });
_define(getpid => sub { return $$ });
_define(getcwd => sub { require Cwd; return Cwd::getcwd() });
_define(isatty => sub { return 0 });
_define(getenv => sub { return $ENV{ $_[0] } });
_define(strerror => sub { local $! = $_[0]; return "$!" });
_define(errno => sub { return $! + 0 });

# --- <stdlib.h> conversions -----------------------------------------------------------------
sub _strto_int {
    my ($string, $base, $unsigned) = @_;
    $base = 10 unless defined $base;
    my $s = defined $string ? "$string" : '';
    my ($space) = $s =~ /^(\s*)/;
    my $pos = length $space;
    my $sign = 1;
    if (substr($s, $pos, 1) =~ /^[+-]$/) { $sign = -1 if substr($s, $pos, 1) eq '-'; $pos++ }
    if (($base == 0 || $base == 16) && substr($s, $pos) =~ /^0[xX][0-9a-fA-F]/) { $pos += 2; $base = 16 }
    elsif ($base == 0) { $base = substr($s, $pos, 1) eq '0' ? 8 : 10 }
    my $value = 0;
    my $digits = 0;
    while ($pos < length $s) {
        my $c = lc substr($s, $pos, 1);
        my $d = $c =~ /[0-9]/ ? ord($c) - 48 : $c =~ /[a-z]/ ? ord($c) - 87 : 99;
        last if $d >= $base;
        $value = $value * $base + $d;
        $pos++;
        $digits++;
    }
    return (0, length $s) unless $digits;
    $value = -$value if $sign < 0;
    unless ($unsigned) {
        $value = 9223372036854775807 if $value > 9223372036854775807;
        $value = -9223372036854775807 - 1 if $value < -9223372036854775807 - 1;
    }
    return ($value, length($s) - $pos);
}
_define(strtol => sub { my @r = _strto_int($_[0], $_[1], 0); return wantarray ? @r : $r[0] });
_define(strtoul => sub { my @r = _strto_int($_[0], $_[1], 1); return wantarray ? @r : $r[0] });
_define(strtod => sub {
    my ($string) = @_;
    my $s = defined $string ? "$string" : '';
    if ($s =~ /^(\s*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))/i) {
        my $match = $1;
        my $value = $match =~ /inf/i ? ($match =~ /-/ ? -$INF : $INF) : $match =~ /nan/i ? $NAN : 0 + $match;
        return wantarray ? ($value, length($s) - length($match)) : $value;
    }
    return wantarray ? (0, length $s) : 0;
});

# --- <locale.h> -----------------------------------------------------------------------------
_define(setlocale => sub { return 'C' });
_define(localeconv => sub { return { decimal_point => '.', thousands_sep => '', grouping => '' } });

# --- <sys/wait.h> ---------------------------------------------------------------------------
_define(WEXITSTATUS => sub { return ($_[0] >> 8) & 0xff });
_define(WIFEXITED => sub { return ($_[0] & 0x7f) == 0 ? 1 : 0 });
_define(WIFSIGNALED => sub { my $s = $_[0] & 0x7f; return ($s != 0 && $s != 0x7f) ? 1 : 0 });
_define(WTERMSIG => sub { return $_[0] & 0x7f });
_define(WIFSTOPPED => sub { return ($_[0] & 0xff) == 0x7f ? 1 : 0 });
_define(WSTOPSIG => sub { return ($_[0] >> 8) & 0xff });

# --- <time.h> -------------------------------------------------------------------------------
# The time zone is UTC (no TZ database here; the official sandbox's container runs in UTC too).
my @DAY = qw(Sunday Monday Tuesday Wednesday Thursday Friday Saturday);
my @MONTH = qw(January February March April May June July August September October November December);

sub _days_from_civil {
    my ($y, $m, $d) = @_;    # $m: 1..12
    $y -= 1 if $m <= 2;
    my $era = POSIX::floor($y / 400);
    my $yoe = $y - $era * 400;
    my $doy = int((153 * ($m + ($m > 2 ? -3 : 9)) + 2) / 5) + $d - 1;
    my $doe = $yoe * 365 + int($yoe / 4) - int($yoe / 100) + $doy;
    return $era * 146097 + $doe - 719468;
}

# Normalises (sec, min, hour, mday, mon, year) as mktime does; returns seconds since the epoch.
sub _timegm {
    my ($sec, $min, $hour, $mday, $mon, $year) = @_;
    $_ = defined $_ ? int($_) : 0 for ($sec, $min, $hour, $mday, $mon, $year);
    $year += 1900 + POSIX::floor($mon / 12);
    $mon = $mon % 12;
    my $days = _days_from_civil($year, $mon + 1, 1) + $mday - 1;
    return (($days * 24 + $hour) * 60 + $min) * 60 + $sec;
}

_define(mktime => sub {
    return undef if @_ < 6;
    return _timegm(@_);
});
_define(difftime => sub { return $_[0] - $_[1] });
_define(clock => sub { return int(CORE::times() * 1000000) });
_define(tzset => sub { return });
_define(tzname => sub { return ('UTC', 'UTC') });
_define(ctime => sub { return CORE::localtime($_[0]) . "\n" });
_define(asctime => sub {
    my @tm = @_;
    my $t = _timegm(@tm[0 .. 5]);
    return CORE::gmtime($t) . "\n";
});

_define(strftime => sub {
    my ($format, @tm) = @_;
    die "Usage: POSIX::strftime(fmt, sec, min, hour, mday, mon, year, wday = -1, yday = -1, isdst = -1)"
        if @tm < 6;
    my $t = _timegm(@tm[0 .. 5]);
    my ($sec, $min, $hour, $mday, $mon, $year, $wday, $yday) = CORE::gmtime($t);
    my $y = $year + 1900;
    my $iso = sub {    # ISO 8601 week-based year and week
        my $wd = ($wday + 6) % 7;    # Monday = 0
        my $thursday_yday = $yday - $wd + 3;
        my $iso_year = $y;
        my $days_in = sub { my $yy = shift; ($yy % 4 == 0 && $yy % 100 != 0) || $yy % 400 == 0 ? 366 : 365 };
        if ($thursday_yday < 0) { $iso_year--; $thursday_yday += $days_in->($iso_year) }
        elsif ($thursday_yday >= $days_in->($y)) { $thursday_yday -= $days_in->($y); $iso_year++ }
        return ($iso_year, int($thursday_yday / 7) + 1);
    };
    my %conv;
    %conv = (
        a => sub { substr($DAY[$wday], 0, 3) }, A => sub { $DAY[$wday] },
        b => sub { substr($MONTH[$mon], 0, 3) }, B => sub { $MONTH[$mon] }, h => sub { substr($MONTH[$mon], 0, 3) },
        C => sub { sprintf '%02d', int($y / 100) }, d => sub { sprintf '%02d', $mday }, e => sub { sprintf '%2d', $mday },
        D => sub { sprintf '%02d/%02d/%02d', $mon + 1, $mday, $y % 100 },
        F => sub { sprintf '%d-%02d-%02d', $y, $mon + 1, $mday },
        H => sub { sprintf '%02d', $hour }, I => sub { sprintf '%02d', ($hour % 12) || 12 },
        j => sub { sprintf '%03d', $yday + 1 }, k => sub { sprintf '%2d', $hour }, l => sub { sprintf '%2d', ($hour % 12) || 12 },
        m => sub { sprintf '%02d', $mon + 1 }, M => sub { sprintf '%02d', $min }, n => sub { "\n" }, t => sub { "\t" },
        p => sub { $hour < 12 ? 'AM' : 'PM' }, P => sub { $hour < 12 ? 'am' : 'pm' },
        r => sub { sprintf '%02d:%02d:%02d %s', ($hour % 12) || 12, $min, $sec, $hour < 12 ? 'AM' : 'PM' },
        R => sub { sprintf '%02d:%02d', $hour, $min }, S => sub { sprintf '%02d', $sec },
        T => sub { sprintf '%02d:%02d:%02d', $hour, $min, $sec }, s => sub { $t },
        u => sub { $wday || 7 }, w => sub { $wday },
        U => sub { sprintf '%02d', int(($yday + 7 - $wday) / 7) },
        W => sub { sprintf '%02d', int(($yday + 7 - (($wday + 6) % 7)) / 7) },
        V => sub { sprintf '%02d', ($iso->())[1] }, G => sub { ($iso->())[0] }, g => sub { sprintf '%02d', ($iso->())[0] % 100 },
        y => sub { sprintf '%02d', $y % 100 }, Y => sub { $y }, Z => sub { 'UTC' }, z => sub { '+0000' },
        c => sub { sprintf '%s %s %2d %02d:%02d:%02d %d', substr($DAY[$wday], 0, 3), substr($MONTH[$mon], 0, 3), $mday, $hour, $min, $sec, $y },
        x => sub { sprintf '%02d/%02d/%02d', $mon + 1, $mday, $y % 100 },
        X => sub { sprintf '%02d:%02d:%02d', $hour, $min, $sec },
        '%' => sub { '%' },
    );
    $format =~ s/%([EO]?)([a-zA-Z%])/exists $conv{$2} ? $conv{$2}->() : "%$1$2"/ge;
    return $format;
});

# --- everything else: present, but not available here -------------------------------------
{
    my %seen;
    for my $name (grep { !$seen{$_}++ } @EXPORT, @EXPORT_OK) {
        next if $name =~ /^[%\$@]/ || $IMPLEMENTED{$name} || defined &{"POSIX::$name"};
        no strict 'refs';
        *{"POSIX::$name"} = sub {
            die "POSIX::$name is not available in benchtop's in-browser Perl (zeroperl has no POSIX; benchtop provides a subset)\n";
        };
    }
}

1;
