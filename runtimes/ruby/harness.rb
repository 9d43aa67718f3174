# Loaded once (as /benchtop/harness.rb) when the Ruby runtime starts, before the memory snapshot
# that every run starts from (rubywasm.ts). `BenchtopHarness.run` then runs /workdir/test.rb the
# way `ruby test.rb` does, as far as a program can tell: exit status, the report of an uncaught
# exception on stderr, at_exit handlers. It returns the exit status, and removes its own constant
# before the program starts (and puts it back after, for `BenchtopHarness.finish`: the report and
# the finalizers, which the host runs once it has the status).

# Timeout.timeout starts a watcher Thread, and this CRuby has no threads (Thread.new raises
# NotImplementedError). Ruby's own syntax_suggest (the report of a SyntaxError) calls it, and so may
# a program: run the block without a watcher. A runaway block is stopped by the host's time limit.
require "timeout"
module Timeout
  def self.timeout(sec, klass = nil, message = nil, &block)
    yield(sec)
  end

  private

  def timeout(*args, &block)
    Timeout.timeout(*args, &block)
  end
end

# Ruby 3.0, as the official sandbox runs it, where CRuby 3.4 differs in ways that decide verdicts.
# Where the standard library (written for 3.4) relies on the new behaviour, only the program's own
# code sees the old one: `program_frame` tells them apart by the caller's file.
program_frame = lambda do |location|
  path = location&.path.to_s
  !(path.start_with?("/usr/local/lib/ruby/") || path.start_with?("<internal:") || path.start_with?("/benchtop/"))
end

# 3.2 made Set available without `require "set"` (an autoload); 3.0 raised NameError. Library code
# that relies on the autoload still gets it.
Object.send(:remove_const, :Set) if Object.autoload?(:Set)
Module.prepend(Module.new do
  define_method(:const_missing) do |name|
    # (The first frame that is not ours: ruby30.rb's const_missing may stand between.)
    if name == :Set && !program_frame.call(caller_locations(1, 4).find { |l| !l.path.to_s.start_with?("/benchtop/") })
      require "set"
      return ::Set
    end
    super(name)
  end
end)

# 3.2 made `Struct.new(:a, :b).new(a: 1, b: 2)` set the members by keyword; 3.0 passed the Hash
# as the first member (keyword_init: nil meant positional). Struct classes have their own `new`,
# so only Struct.new itself goes through this.
Struct.singleton_class.prepend(Module.new do
  define_method(:new) do |*args, **options, &block|
    if equal?(Struct) && !options.key?(:keyword_init) && program_frame.call(caller_locations(1, 1)&.first)
      options[:keyword_init] = false
    end
    super(*args, **options, &block)
  end
end)

# 3.4 prints a Hash as {"a" => 1, b: 2}; 3.0 printed {"a"=>1, :b=>2} (Hash#inspect and #to_s).
inspecting = {}.compare_by_identity
Hash.send(:define_method, :inspect) do
  return "{}" if empty?
  return "{...}" if inspecting.key?(self)
  inspecting[self] = true
  begin
    "{#{map { |key, value| "#{key.inspect}=>#{value.inspect}" }.join(", ")}}"
  ensure
    inspecting.delete(self)
  end
end
Hash.send(:alias_method, :to_s, :inspect)
# And pp, the same way (3.0's pp_hash: key, "=>", value).
require "pp"
class PP
  module PPMethods
    def pp_hash_pair(key, value)
      pp key
      text "=>"
      group(1) do
        breakable ""
        pp value
      end
    end
  end
end

# Removed in 3.2, present (deprecated) in 3.0.
class << File
  def exists?(path) = exist?(path)
end
class << Dir
  def exists?(path) = exist?(path)
end
Object.const_set(:Fixnum, Integer)
Object.const_set(:Bignum, Integer)
Object.deprecate_constant(:Fixnum, :Bignum)
Random.const_set(:DEFAULT, Random)
Random.deprecate_constant(:DEFAULT)
class Object
  def =~(_other) = nil
  def taint = self
  def untaint = self
  def tainted? = false
  def trust = self
  def untrust = self
  def untrusted? = false
end

require "/benchtop/threads.rb"
require "/benchtop/ruby30.rb" # what 3.1–3.4 added fails as under 3.0
ENV.delete("RUBY_FIBER_VM_STACK_SIZE") # read by the VM at boot (rubywasm.ts): not the program's

# Two ways a program could still reach the harness's decision after it has run (until 2026-12-02,
# each made a failure exit 0; ruby: 1):
# - the harness's `rescue Exception` asks Exception.=== (a method call), which a program can
#   redefine (`class Module; def ===(o) = exit!(0); end`): in this file it is ruby's own, through a
#   refinement (BenchtopGuard, from threads.rb), which comes before a class's own methods and its
#   prepended modules;
# - a TracePoint (or set_trace_func) gets the binding of every frame it sees, and could set the
#   harness's locals (the caught error, the status). There is none for programs: TracePoint.new and
#   .trace, Kernel's and Thread's set_trace_func are undefined (a wrapper that filtered out our
#   frames would have to keep the original, which ObjectSpace hands to any program).
using BenchtopGuard
BenchtopGuard.freeze
Object.send(:remove_const, :BenchtopGuard)
TracePoint.singleton_class.send(:undef_method, :new, :trace)
Kernel.send(:undef_method, :set_trace_func)
Thread.send(:undef_method, :set_trace_func, :add_trace_func)

module BenchtopHarness
  # Blocks given to at_exit, run when the program ends (the process never ends here: the instance is
  # dropped instead), newest first, as Ruby's own end procs are.
  @handlers = []
  # Finalizers not run yet, in definition order: [object id, callable, done] (see the end of this file).
  @finalizers = []
  @state = { minitest_patched: false }

  # How the status is decided once the program has run, taken now: ruby decides it in C, but this
  # harness runs in the program's own VM, where a program can redefine what a call reaches
  # (`def SystemExit.===`, `RuntimeError#status`, `Array#pop`, `Proc#call`…). Until 2026-12-02 a
  # program could so make its own failure exit 0 (ruby: 1). These are the C methods themselves;
  # UnboundMethod is frozen below, so `bind_call` stays ruby's own, and so is this module. Those
  # the green-thread scheduler takes too are its (threads.rb, loaded above; frozen at the end).
  IS_A = BenchtopThreads::IS_A
  CALL = BenchtopThreads::CALL
  PUSH = BenchtopThreads::PUSH
  SHIFT = BenchtopThreads::SHIFT
  EACH = BenchtopThreads::EACH
  HASH_GET = BenchtopThreads::HASH_GET
  HASH_SET = BenchtopThreads::HASH_SET
  EXIT_STATUS = SystemExit.instance_method(:status)
  EMPTY = Array.instance_method(:empty?)
  POP = Array.instance_method(:pop)
  CLASS_EVAL = Module.instance_method(:class_eval)
  CONST_SET = Module.instance_method(:const_set)
  # For the report of an error, which for a green thread's comes before the status (threads.rb).
  FULL_MESSAGE = Exception.instance_method(:full_message)
  DETAILED = Exception.instance_method(:detailed_message)
  MESSAGE = Exception.instance_method(:message)
  SET_BACKTRACE = Exception.instance_method(:set_backtrace)
  CAUSE = Exception.instance_method(:cause)
  CLASS_OF = Kernel.instance_method(:class)
  NAME = Module.instance_method(:name)
  FROZEN = Kernel.instance_method(:frozen?)
  BY_IDENTITY = Hash.instance_method(:compare_by_identity)
  SLICE = Array.instance_method(:[])
  REJECT = Array.instance_method(:reject)
  MAP = Array.instance_method(:map)
  LAST = Array.instance_method(:last)
  STARTS = String.instance_method(:start_with?)
  REPLACE = String.instance_method(:sub)
  CONCAT = String.instance_method(:+)
  WRITE = IO.instance_method(:write)
  FLUSH = IO.instance_method(:flush)
  OUT = STDOUT
  ERR = STDERR
  # 3.4's full_message calls detailed_message, which ruby 3.0/3.1's report did not: an error whose
  # detailed_message is not one of these (a program's, which could exit!(0) from a thread's report)
  # gets the plain report instead.
  KNOWN_DETAILED = ["Exception", "DidYouMean::Correctable", "ErrorHighlight::CoreExt"].filter_map do |name|
    Object.const_get(name).instance_method(:detailed_message)
  rescue NameError
    nil
  end.freeze
  METHOD_OF = Kernel.instance_method(:method)
  UNBIND = Method.instance_method(:unbind)
  SAME = UnboundMethod.instance_method(:==)
  # The errors to report, kept for `finish`: those of at_exit handlers, then the one that ended the program.
  PENDING = []

  class << self
    attr_reader :handlers, :finalizers

    def run
      threads = ::BenchtopThreads
      ruby30 = ::BenchtopRuby30
      Object.send(:remove_const, :BenchtopThreads)
      Object.send(:remove_const, :BenchtopRuby30)
      Object.send(:remove_const, :BenchtopHarness)
      Dir.chdir("/workdir")
      $0 = "test.rb"
      srand # a new seed, as a new process has (the snapshot's would repeat)
      define_data
      # Syntax newer than 3.0: the error 3.0 gives, before anything runs (ruby30.rb).
      too_new = ruby30.too_new(File.binread("test.rb"))
      if too_new
        report(too_new)
        return 1
      end
      # A program that names Thread gets green threads (threads.rb), at_exit handlers included; the
      # others run as they are.
      if File.binread("test.rb").match?(/\bThread\b/)
        result, failure = threads.run(method(:report)) { run_program }
        error, status, handler_status = failure ? [failure, 1, nil] : result
      else
        error, status, handler_status = run_program
      end
      # As ruby's own cleanup: an exit (or error) inside a handler decides the status. The error is
      # reported after the handlers ran, by `finish`: the host takes this status first, and then
      # ignores what the rest of the ending does to it (report and finalizers call methods the
      # program may have redefined, to `exit!` from there).
      status = handler_status if handler_status
      PUSH.bind_call(PENDING, error) if error
      CONST_SET.bind_call(Object, :BenchtopHarness, self)
      status
    end

    # The end of ruby's cleanup, once the host has the status: the report of the error that ended
    # the program, then the finalizers still pending.
    def finish
      report(SHIFT.bind_call(PENDING)) until EMPTY.bind_call(PENDING)
      run_finalizers
      flush
      0
    end

    # Minitest runs the tests of `parallelize_me!` classes in worker Threads: run them in turn
    # instead (the body of its worker loop). Called when a program registers an at_exit handler
    # (minitest/autorun does, once minitest is loaded) and before the handlers run.
    def patch_minitest
      return if HASH_GET.bind_call(@state, :minitest_patched) || !defined?(::Minitest::Parallel::Executor)
      HASH_SET.bind_call(@state, :minitest_patched, true)
      CLASS_EVAL.bind_call(::Minitest::Parallel::Executor) do
        def start
          @pool = []
        end

        def <<(work)
          klass, method, reporter = work
          reporter.synchronize { reporter.prerecord klass, method }
          result = ::Minitest.run_one_method klass, method
          reporter.synchronize { reporter.record result }
        end

        def shutdown; end
      end
    end

    private

    # Runs test.rb and then the at_exit handlers: [uncaught error, status, status from a handler].
    # (One rescue, and the class checked with IS_A: `rescue SystemExit` asks SystemExit.===.)
    # ($! is the error while the handlers run, as in ruby.)
    def run_program
      load "test.rb"
    rescue Exception => e # rubocop:disable Lint/RescueException
      IS_A.bind_call(e, SystemExit) ? [nil, EXIT_STATUS.bind_call(e), run_handlers] : [e, 1, run_handlers]
    else
      [nil, 0, run_handlers]
    end

    # What ruby does last as it ends: the finalizers still pending, each once; an exception in
    # one is a warning and changes nothing else.
    def run_finalizers
      until @finalizers.empty?
        entry = @finalizers.shift
        next if entry[2]
        entry[2] = true
        begin
          entry[1].call(entry[0])
        rescue Exception => e # rubocop:disable Lint/RescueException
          flush
          STDERR.write("test.rb: warning: Exception in finalizer #{entry[1].inspect}\n")
          report(e)
        end
      end
    end

    # DATA: what follows __END__ in the main script (ruby sets it for the script it runs; `load`
    # does not).
    def define_data
      source = File.binread("test.rb")
      marker = source.match(/^__END__\r?\n/) || source.match(/^__END__\z/)
      return unless marker
      data = File.open("test.rb")
      data.seek(marker.end(0))
      Object.const_set(:DATA, data)
    end

    def run_handlers
      patch_minitest
      status = nil
      until EMPTY.bind_call(@handlers)
        handler = POP.bind_call(@handlers)
        begin
          CALL.bind_call(handler)
        rescue Exception => e # rubocop:disable Lint/RescueException
          if IS_A.bind_call(e, SystemExit)
            status = EXIT_STATUS.bind_call(e)
          else
            PUSH.bind_call(PENDING, e) # (reported by `finish`: the report calls the program's methods)
            status = 1
          end
        end
      end
      status
    end

    # The report ruby prints for an uncaught exception, without the frames of this harness. (Only
    # C methods, but those ruby's own report calls too: Exception#backtrace, #message.)
    def report(error, header = "")
      trim(error, BY_IDENTITY.bind_call({}))
      text = begin
        frames = error.backtrace
        if frames ? EMPTY.bind_call(frames) : true
          # No frame of the program (test.rb does not parse): ruby names the script instead.
          join("test.rb: ", DETAILED.bind_call(error, highlight: false), "\n")
        elsif known_detailed?(error)
          FULL_MESSAGE.bind_call(error, highlight: false, order: :top)
        else
          frames = SLICE.bind_call(frames, 0..)
          text = join(SHIFT.bind_call(frames), ": ", MESSAGE.bind_call(error), " (", NAME.bind_call(CLASS_OF.bind_call(error)), ")\n")
          text = join(text, "\tfrom ", SHIFT.bind_call(frames), "\n") until EMPTY.bind_call(frames)
          text
        end
      rescue Exception # rubocop:disable Lint/RescueException
        join("test.rb: ", MESSAGE.bind_call(error), " (", NAME.bind_call(CLASS_OF.bind_call(error)), ")\n")
      end
      flush
      WRITE.bind_call(ERR, join(header, text))
    rescue Exception # rubocop:disable Lint/RescueException
      nil
    end

    def known_detailed?(error)
      found = UNBIND.bind_call(METHOD_OF.bind_call(error, :detailed_message))
      known = false
      EACH.bind_call(KNOWN_DETAILED) { |m| known = true if SAME.bind_call(m, found) }
      known
    end

    def join(*parts)
      text = ""
      text = CONCAT.bind_call(text, SHIFT.bind_call(parts)) until EMPTY.bind_call(parts)
      text
    end

    # Drops the frames that are ours: this file's (Timeout's and at_exit's too), the entry `eval`
    # and, last of all, the C frame that called it (whatever file it names).
    def trim(error, seen)
      return if error ? HASH_GET.bind_call(seen, error) : true
      HASH_SET.bind_call(seen, error, true)
      frames = error.backtrace
      if frames && (FROZEN.bind_call(error) ? false : true)
        kept = REJECT.bind_call(SLICE.bind_call(frames, 0...-1) || []) { |line| STARTS.bind_call(line, "/benchtop/") }
        POP.bind_call(kept) while (EMPTY.bind_call(kept) ? false : STARTS.bind_call(LAST.bind_call(kept), "eval:"))
        kept = MAP.bind_call(kept) { |line| STARTS.bind_call(line, "test.rb:") ? REPLACE.bind_call(line, "<top (required)>", "<main>") : line }
        SET_BACKTRACE.bind_call(error, kept)
      end
      trim(CAUSE.bind_call(error), seen)
    end

    def flush
      FLUSH.bind_call(OUT)
      FLUSH.bind_call(ERR)
    rescue Exception # rubocop:disable Lint/RescueException
      nil
    end
  end
end

# at_exit (Kernel#at_exit and Kernel.at_exit): collected for the harness (see above).
harness = BenchtopHarness
at_exit = lambda do |&block|
  raise ArgumentError, "called without a block" unless block
  harness.patch_minitest
  harness.handlers << block
  block
end
Kernel.send(:define_method, :at_exit, &at_exit)
Kernel.send(:private, :at_exit)
Kernel.define_singleton_method(:at_exit, &at_exit)

# ObjectSpace.define_finalizer: ruby runs the finalizers still pending when the process ends (after
# the at_exit handlers and the error report); here the instance is dropped instead, so the harness
# keeps them and runs them then (run_finalizers). One that the GC runs earlier is not run again.
finalizers = BenchtopHarness.finalizers
once = lambda do |entry|
  proc do |id|
    unless entry[2]
      entry[2] = true
      entry[1].call(id)
    end
  end
end
ObjectSpace.singleton_class.prepend(Module.new do
  define_method(:define_finalizer) do |obj, *rest, &block|
    callable = rest.empty? ? block : rest.first
    return super(obj, *rest, &block) if callable.nil? || rest.length > 1
    raise ArgumentError, "wrong type argument #{callable.class} (should be callable)" unless callable.respond_to?(:call)
    entry = [obj.__id__, callable, false]
    super(obj, once.call(entry))
    finalizers << entry
    [0, callable]
  end

  define_method(:undefine_finalizer) do |obj|
    id = obj.__id__
    finalizers.each { |entry| entry[2] = true if entry[0] == id }
    super(obj)
  end
end)

# Nothing of the harness can be redefined by a program (it finds the module through ObjectSpace),
# nor UnboundMethod, whose bind_call the harness relies on.
BenchtopHarness.freeze
BenchtopThreads.freeze
UnboundMethod.freeze
