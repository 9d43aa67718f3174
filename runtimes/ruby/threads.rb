# Threads for a CRuby without threads (loaded by harness.rb). This WebAssembly build cannot start a
# Thread (Thread#initialize raises NotImplementedError), so a program that uses threads runs its
# main code and each Thread.new block as Fibers under a Fiber scheduler, switching where a real
# thread would wait: Thread#join/#value, Queue#pop, SizedQueue#push, Mutex#lock,
# ConditionVariable#wait and sleep (Ruby's own Queue, Mutex and ConditionVariable call the scheduler
# from non-blocking fibers). Interleaving is cooperative: a thread that never waits runs to its end
# before another gets a turn, which is one of the orders a real scheduler may choose.
#
# Known differences: Thread.current is the one real thread everywhere (its fiber-local [] storage is
# per green thread, as it is per fiber in CRuby); green threads are not kind_of?(Thread) for `case`;
# Thread.list shows only the main thread.
# The scheduler and the report of a thread's error run in the program's own VM, between its code
# and its status, where a program can redefine what a call reaches (`Fiber#resume`, `Proc#call`,
# `Exception#full_message`, `Kernel#sleep`…). Until 2026-12-02 such a method redefined to `exit!(0)`
# made a failing program exit 0 here (ruby: 1). So they call C methods taken now, before any
# program, through `bind_call` (UnboundMethod is frozen by harness.rb), rescue through ruby's own
# Exception.=== (this refinement, harness.rb's too), and their classes are frozen.
module BenchtopGuard
  MODULE_EQQ = Module.instance_method(:===)
  refine(Exception.singleton_class) do
    def ===(other) = MODULE_EQQ.bind_call(self, other)
  end.freeze
end
using BenchtopGuard

module BenchtopThreads
  OWN = self # (the constant BenchtopThreads is gone while a program runs)
  CLOCK = Process.singleton_class.instance_method(:clock_gettime)
  MONOTONIC = Process::CLOCK_MONOTONIC
  CURRENT = Fiber.singleton_class.instance_method(:current)
  YIELD = Fiber.singleton_class.instance_method(:yield)
  SET_SCHEDULER = Fiber.singleton_class.instance_method(:set_scheduler)
  ALLOCATE = Class.instance_method(:allocate)
  FIBER_INIT = Fiber.instance_method(:initialize)
  RESUME = Fiber.instance_method(:resume)
  ALIVE = Fiber.instance_method(:alive?)
  BLOCKING = Fiber.instance_method(:blocking?)
  FIBER_RAISE = Fiber.instance_method(:raise)
  FIBER_KILL = Fiber.instance_method(:kill)
  CALL = Proc.instance_method(:call)
  METHOD_CALL = Method.instance_method(:call)
  RAISE = Kernel.instance_method(:raise)
  IS_A = Kernel.instance_method(:is_a?)
  EQUAL = BasicObject.instance_method(:equal?)
  PUSH = Array.instance_method(:push)
  SHIFT = Array.instance_method(:shift)
  DELETE = Array.instance_method(:delete)
  EACH = Array.instance_method(:each)
  AT = Array.instance_method(:[])
  DELETE_AT = Array.instance_method(:delete_at)
  LENGTH = Array.instance_method(:length)
  HASH_GET = Hash.instance_method(:[])
  HASH_SET = Hash.instance_method(:[]=)
  HASH_DELETE = Hash.instance_method(:delete)
  HASH_KEY = Hash.instance_method(:key?)
  KEYS = Hash.instance_method(:keys)
  TO_SYM = String.instance_method(:to_sym)
  ADD = Float.instance_method(:+)
  SUB = Float.instance_method(:-)
  GT = Float.instance_method(:>)
  LESS = Integer.instance_method(:<)
  SUCC = Integer.instance_method(:succ)
  TO_S = Integer.instance_method(:to_s)
  CONCAT = String.instance_method(:+)
  FORMAT = Kernel.instance_method(:format)
  OBJECT_ID = Kernel.instance_method(:object_id)
  CALLER = Kernel.instance_method(:caller_locations)
  PATH = Thread::Backtrace::Location.instance_method(:path)
  LINENO = Thread::Backtrace::Location.instance_method(:lineno)
  SLEEP = Kernel.instance_method(:sleep)
  REPORTS = Thread.singleton_class.instance_method(:report_on_exception)
  # CRuby's deadlock error (a class without a constant).
  FATAL = ObjectSpace.each_object(Class).find { |c| c.name == "fatal" } || RuntimeError

  def self.symbol(key)
    return key if IS_A.bind_call(key, Symbol)
    return TO_SYM.bind_call(key) if IS_A.bind_call(key, String)
    RAISE.bind_call(self, TypeError, "not a symbol nor a string")
  end

  def self.now = CLOCK.bind_call(Process, MONOTONIC)
  def self.current = CURRENT.bind_call(Fiber)

  # A non-blocking Fiber, made without Fiber.new (which would call a program's Fiber#initialize).
  def self.fiber(&block)
    fiber = ALLOCATE.bind_call(Fiber)
    FIBER_INIT.bind_call(fiber, blocking: false, &block)
    fiber
  end

  def self.join(*parts)
    all = ""
    EACH.bind_call(parts) { |part| all = CONCAT.bind_call(all, part) }
    all
  end

  class Scheduler
    def initialize
      @ready = []
      @waiting = {}.compare_by_identity
      @timers = []
      @timed_out = {}.compare_by_identity
      freeze
    end

    # Ruby asks a scheduler for its optional hooks through respond_to? once a program has redefined
    # it (rb_check_funcall): here they are Kernel's own.
    define_method(:respond_to?, Kernel.instance_method(:respond_to?))
    define_method(:respond_to_missing?, Kernel.instance_method(:respond_to_missing?))
    private :respond_to_missing?

    def now = OWN.now

    # Fiber::Scheduler hooks.
    def block(_blocker, timeout = nil)
      wait(timeout)
    end

    def unblock(_blocker, fiber)
      wake(fiber)
    end

    def kernel_sleep(duration = nil)
      wait(duration)
      true
    end

    def io_wait(_io, events, _timeout) = events

    def fiber(&block)
      fiber = OWN.fiber(&block)
      RESUME.bind_call(fiber)
      fiber
    end

    def close; end
    def scheduler_close; end

    # Suspends the current fiber until `wake` (or the timeout); true when woken.
    def wait(timeout = nil)
      fiber = OWN.current
      token = ALLOCATE.bind_call(Object)
      HASH_SET.bind_call(@waiting, fiber, token)
      PUSH.bind_call(@timers, [ADD.bind_call(now, timeout), fiber, token]) if timeout
      YIELD.bind_call(Fiber)
      HASH_DELETE.bind_call(@timed_out, fiber) ? false : true
    ensure
      HASH_DELETE.bind_call(@waiting, fiber) if EQUAL.bind_call(HASH_GET.bind_call(@waiting, fiber), token)
    end

    def wake(fiber)
      return false unless HASH_KEY.bind_call(@waiting, fiber)
      HASH_DELETE.bind_call(@waiting, fiber)
      PUSH.bind_call(@ready, fiber)
      true
    end

    # Thread.pass from a green thread: to the back of the queue.
    def pass
      PUSH.bind_call(@ready, OWN.current)
      YIELD.bind_call(Fiber)
    end

    def start(fiber)
      PUSH.bind_call(@ready, fiber)
    end

    # The loop, run by the root fiber until `done` holds. False when nothing can run any more while
    # `done` still does not hold (every thread waits: a deadlock).
    def run_until
      until yield
        if (fiber = SHIFT.bind_call(@ready))
          RESUME.bind_call(fiber) if ALIVE.bind_call(fiber)
          next
        end
        index = earliest
        return false unless index
        due, fiber, = AT.bind_call(@timers, index)
        delay = SUB.bind_call(due, now)
        if GT.bind_call(delay, 0.0)
          SLEEP.bind_call(self, delay) # the root fiber blocks for real
        else
          DELETE_AT.bind_call(@timers, index)
          HASH_SET.bind_call(@timed_out, fiber, true)
          wake(fiber)
        end
      end
      true
    end

    private

    # Drops the timers of fibers woken since; the index of the earliest one left (nil: none).
    def earliest
      i = 0
      best = nil
      while LESS.bind_call(i, LENGTH.bind_call(@timers))
        _, fiber, token = timer = AT.bind_call(@timers, i)
        if EQUAL.bind_call(HASH_GET.bind_call(@waiting, fiber), token)
          best = i if best ? GT.bind_call(AT.bind_call(AT.bind_call(@timers, best), 0), AT.bind_call(timer, 0)) : true
          i = SUCC.bind_call(i)
        else
          DELETE_AT.bind_call(@timers, i)
        end
      end
      best
    end
  end

  # What Thread.new returns.
  class GreenThread
    attr_accessor :name, :report_on_exception, :abort_on_exception, :priority
    attr_reader :fiber

    def initialize(scheduler, args, block, where, report)
      @scheduler = scheduler
      @where = where
      @locals = {}
      @variables = {}
      @joiners = []
      @done = false
      @report_on_exception = REPORTS.bind_call(Thread)
      @abort_on_exception = false
      @priority = 0
      thread = self
      @fiber = OWN.fiber do
        @value = CALL.bind_call(block, *args)
      rescue Exception => e # rubocop:disable Lint/RescueException
        # (Killed ends the thread silently, SystemExit only this thread, silently.)
        unless IS_A.bind_call(e, Killed)
          @exception = e
          if @report_on_exception && !IS_A.bind_call(e, SystemExit)
            header = OWN.join(thread.inspect, " terminated with exception (report_on_exception is true):\n")
            METHOD_CALL.bind_call(report, e, header)
          end
        end
      ensure
        @done = true
        EACH.bind_call(@joiners) { |fiber| @scheduler.wake(fiber) }
      end
      scheduler.start(@fiber)
    end

    class Killed < Exception; end # rubocop:disable Lint/InheritException

    def alive? = @done ? false : true

    def status
      return (@exception ? nil : false) if @done
      EQUAL.bind_call(OWN.current, @fiber) ? "run" : "sleep"
    end

    def stop? = @done || (EQUAL.bind_call(OWN.current, @fiber) ? false : true)

    def join(limit = nil)
      unless @done
        RAISE.bind_call(self, ThreadError, "Target thread must not be current thread") if EQUAL.bind_call(OWN.current, @fiber)
        deadline = limit && ADD.bind_call(@scheduler.now, limit)
        until @done
          remaining = deadline && SUB.bind_call(deadline, @scheduler.now)
          return nil if remaining && !GT.bind_call(remaining, 0.0)
          me = OWN.current
          PUSH.bind_call(@joiners, me)
          begin
            @scheduler.wait(remaining)
          ensure
            DELETE.bind_call(@joiners, me)
          end
        end
      end
      RAISE.bind_call(self, @exception) if @exception
      self
    end

    def value
      join
      @value
    end

    def kill
      return self if @done
      RAISE.bind_call(self, Killed) if EQUAL.bind_call(OWN.current, @fiber)
      if ALIVE.bind_call(@fiber)
        begin
          FIBER_KILL.bind_call(@fiber)
        rescue FiberError
          nil
        end
      end
      @done = true
      EACH.bind_call(@joiners) { |fiber| @scheduler.wake(fiber) }
      self
    end
    alias exit kill
    alias terminate kill

    def wakeup
      @scheduler.wake(@fiber)
      self
    end
    alias run wakeup

    # (Ruby's own are C: a String key becomes a Symbol without a call a program could redefine.)
    def [](key) = HASH_GET.bind_call(@locals, OWN.symbol(key))
    def []=(key, value)
      HASH_SET.bind_call(@locals, OWN.symbol(key), value)
    end
    def key?(key) = HASH_KEY.bind_call(@locals, OWN.symbol(key))
    def keys = KEYS.bind_call(@locals)
    def thread_variable_get(key) = HASH_GET.bind_call(@variables, OWN.symbol(key))
    def thread_variable_set(key, value)
      HASH_SET.bind_call(@variables, OWN.symbol(key), value)
    end
    def thread_variable?(key) = HASH_KEY.bind_call(@variables, OWN.symbol(key))
    def backtrace(*) = []
    def group = ThreadGroup::Default

    def kind_of?(klass) = EQUAL.bind_call(klass, Thread) || super
    alias is_a? kind_of?

    # (Part of the report of its error: C methods only.)
    def inspect
      state = @done ? "dead" : status
      id = FORMAT.bind_call(self, "%016x", OBJECT_ID.bind_call(self))
      named = @name ? OWN.join("@", FORMAT.bind_call(self, "%s", @name)) : ""
      OWN.join("#<Thread:0x", id, named, " ", @where, " ", state, ">")
    end
    alias to_s inspect
  end

  # Runs `main` (a block that loads the program) as a fiber with green threads: [what it returns,
  # the error it raised]. `report.call(error, header)` (a Method) prints the error of a thread that
  # dies, as CRuby does with report_on_exception.
  def self.run(report, &main)
    scheduler = Scheduler.new
    SET_SCHEDULER.bind_call(Fiber, scheduler)
    install(scheduler, report)
    result = failure = nil
    program = fiber do
      result = CALL.bind_call(main)
    rescue Exception => e # rubocop:disable Lint/RescueException
      failure = e
    end
    RESUME.bind_call(program)
    unless scheduler.run_until { ALIVE.bind_call(program) ? false : true }
      # Every thread waits, the main one too: CRuby's deadlock error, raised in the main thread.
      FIBER_RAISE.bind_call(program, FATAL, "No live threads left. Deadlock?")
      scheduler.run_until { ALIVE.bind_call(program) ? false : true }
    end
    [result, failure]
  ensure
    SET_SCHEDULER.bind_call(Fiber, nil)
  end

  def self.install(scheduler, report)
    make = ->(args, block) do
      RAISE.bind_call(self, ThreadError, "must be called with a block") unless block
      # (4: past this lambda, the bind_call that calls it and Thread.new)
      where = AT.bind_call(CALLER.bind_call(self, 4, 1) || [], 0)
      where &&= OWN.join(PATH.bind_call(where), ":", TO_S.bind_call(LINENO.bind_call(where)))
      GreenThread.new(scheduler, args, block, where, report)
    end
    Thread.singleton_class.prepend(Module.new do
      define_method(:new) { |*args, &block| CALL.bind_call(make, args, block) }
      define_method(:start) { |*args, &block| CALL.bind_call(make, args, block) }
      define_method(:fork) { |*args, &block| CALL.bind_call(make, args, block) }
      define_method(:pass) { BLOCKING.bind_call(OWN.current) ? nil : scheduler.pass }
    end.freeze)
  end

  Scheduler.freeze
  GreenThread.freeze
  GreenThread::Killed.freeze
end
