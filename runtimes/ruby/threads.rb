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
module BenchtopThreads
  class Scheduler
    def initialize
      @ready = []
      @waiting = {}.compare_by_identity
      @timers = []
    end

    def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

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
      fiber = Fiber.new(blocking: false, &block)
      fiber.resume
      fiber
    end

    def close; end

    # Suspends the current fiber until `wake` (or the timeout); true when woken.
    def wait(timeout = nil)
      fiber = Fiber.current
      token = Object.new
      @waiting[fiber] = token
      @timers << [now + timeout, fiber, token] if timeout
      Fiber.yield
      !@timed_out&.delete(fiber)
    ensure
      @waiting.delete(fiber) if @waiting[fiber].equal?(token)
    end

    def wake(fiber)
      return false unless @waiting.key?(fiber)
      @waiting.delete(fiber)
      @ready << fiber
      true
    end

    # Thread.pass from a green thread: to the back of the queue.
    def pass
      @ready << Fiber.current
      Fiber.yield
    end

    def start(fiber)
      @ready << fiber
    end

    # The loop, run by the root fiber until `done` holds. False when nothing can run any more while
    # `done` still does not hold (every thread waits: a deadlock).
    def run_until
      until yield
        if (fiber = @ready.shift)
          fiber.resume if fiber.alive?
          next
        end
        @timers.reject! { |_, fiber, token| !@waiting[fiber].equal?(token) }
        return false if @timers.empty?
        @timers.sort_by!(&:first)
        due, fiber, = @timers.first
        delay = due - now
        if delay > 0
          sleep(delay) # the root fiber blocks for real
        else
          @timers.shift
          (@timed_out ||= {}.compare_by_identity)[fiber] = true
          wake(fiber)
        end
      end
      true
    end
  end

  # What Thread.new returns.
  class GreenThread
    attr_accessor :name, :report_on_exception, :abort_on_exception, :priority
    attr_reader :fiber

    @count = 0
    class << self
      attr_accessor :count
    end

    def initialize(scheduler, args, block, where, report)
      @scheduler = scheduler
      @where = where
      @locals = {}
      @variables = {}
      @joiners = []
      @done = false
      @report_on_exception = Thread.report_on_exception
      @abort_on_exception = false
      @priority = 0
      GreenThread.count += 1
      @number = GreenThread.count
      thread = self
      @fiber = Fiber.new(blocking: false) do
        begin
          @value = block.call(*args)
        rescue Killed
          nil
        rescue SystemExit => e # ends this thread only, silently
          @exception = e
        rescue Exception => e # rubocop:disable Lint/RescueException
          @exception = e
          report.call(e, "#{thread.inspect} terminated with exception (report_on_exception is true):\n") if @report_on_exception
        ensure
          @done = true
          @joiners.each { |fiber| @scheduler.wake(fiber) }
        end
      end
      scheduler.start(@fiber)
    end

    class Killed < Exception; end # rubocop:disable Lint/InheritException

    def alive? = !@done

    def status
      return (@exception ? nil : false) if @done
      Fiber.current.equal?(@fiber) ? "run" : "sleep"
    end

    def stop? = @done || !Fiber.current.equal?(@fiber)

    def join(limit = nil)
      unless @done
        raise ThreadError, "Target thread must not be current thread" if Fiber.current.equal?(@fiber)
        deadline = limit && @scheduler.now + limit
        until @done
          remaining = deadline && deadline - @scheduler.now
          return nil if remaining && remaining <= 0
          @joiners << Fiber.current
          begin
            @scheduler.wait(remaining)
          ensure
            @joiners.delete(Fiber.current)
          end
        end
      end
      raise @exception if @exception
      self
    end

    def value
      join
      @value
    end

    def kill
      return self if @done
      raise Killed if Fiber.current.equal?(@fiber)
      if @fiber.alive?
        begin
          @fiber.kill
        rescue FiberError
          nil
        end
      end
      @done = true
      @joiners.each { |fiber| @scheduler.wake(fiber) }
      self
    end
    alias exit kill
    alias terminate kill

    def wakeup
      @scheduler.wake(@fiber)
      self
    end
    alias run wakeup

    def [](key) = @locals[key.to_sym]
    def []=(key, value)
      @locals[key.to_sym] = value
    end
    def key?(key) = @locals.key?(key.to_sym)
    def keys = @locals.keys
    def thread_variable_get(key) = @variables[key.to_sym]
    def thread_variable_set(key, value)
      @variables[key.to_sym] = value
    end
    def thread_variable?(key) = @variables.key?(key.to_sym)
    def backtrace(*) = []
    def group = ThreadGroup::Default

    def kind_of?(klass) = klass == Thread || super
    alias is_a? kind_of?

    def inspect
      state = @done ? "dead" : status
      "#<Thread:0x#{format('%016x', object_id)}#{name ? "@#{name}" : ''} #{@where} #{state}>"
    end
    alias to_s inspect
  end

  # Runs `main` (a block that loads the program) as a fiber with green threads; its exceptions
  # reach the caller as they would from the main thread. `report.call(error, header)` prints the
  # error of a thread that dies, as CRuby does with report_on_exception.
  def self.run(report, &main)
    scheduler = Scheduler.new
    Fiber.set_scheduler(scheduler)
    install(scheduler, report)
    failure = nil
    program = Fiber.new(blocking: false) do
      main.call
    rescue Exception => e # rubocop:disable Lint/RescueException
      failure = e
    end
    program.resume
    unless scheduler.run_until { !program.alive? }
      # Every thread waits, the main one too: CRuby's deadlock error, raised in the main thread.
      deadlock = ObjectSpace.each_object(Class).find { |c| c.name == "fatal" } || RuntimeError
      program.raise(deadlock, "No live threads left. Deadlock?")
      scheduler.run_until { !program.alive? }
    end
    raise failure if failure
  ensure
    Fiber.set_scheduler(nil)
  end

  def self.install(scheduler, report)
    make = ->(args, block) do
      raise ThreadError, "must be called with a block" unless block
      where = caller_locations(2, 1)&.first
      GreenThread.new(scheduler, args, block, where && "#{where.path}:#{where.lineno}", report)
    end
    Thread.singleton_class.prepend(Module.new do
      define_method(:new) { |*args, &block| make.call(args, block) }
      define_method(:start) { |*args, &block| make.call(args, block) }
      define_method(:fork) { |*args, &block| make.call(args, block) }
      define_method(:pass) { Fiber.current.blocking? ? nil : scheduler.pass }
    end)
  end
end
