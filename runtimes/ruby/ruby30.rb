# Loaded by harness.rb at start-up (in the memory snapshot). The official sandbox runs Ruby 3.0;
# this is CRuby 3.4. What 3.1–3.4 added must fail in the program as it fails under 3.0:
#   - methods and constants added after 3.0 raise NoMethodError / NameError when the program's own
#     code calls them (the standard library, written for 3.4, still gets them: see `program?`);
#   - syntax added after 3.0 is found with Prism before the program runs (BenchtopRuby30.too_new)
#     and reported as 3.0 would: a SyntaxError, or for `it` (3.4) the NameError 3.0 raises.
# Sources: the NEWS files of Ruby 3.1.0, 3.2.0, 3.3.0 and 3.4.0 ("Core classes updates", "Language
# changes"). Not covered (docs/fidelity.md): MatchData#deconstruct(_keys) and Time#deconstruct_keys
# (3.2) — pattern matching calls them from C, indistinguishable from the program's own call, and
# 3.0 answers "no match" there, not NoMethodError — and behaviour changes of existing methods.
require "prism"

module BenchtopRuby30
  LIBRARY_PREFIXES = ["/usr/local/lib/ruby/", "<internal:", "/benchtop/"].freeze

  # Whether a caller's location is the program's code (not the standard library's, not ours).
  def self.program?(location)
    path = location&.path.to_s
    LIBRARY_PREFIXES.none? { |prefix| path.start_with?(prefix) }
  end

  # [owner, method, the Ruby version that added it]; instance methods unless the owner is a
  # singleton class.
  ADDED_METHODS = [
    [Array, :intersect?, "3.1"], [Array, :fetch_values, "3.4"],
    [Enumerable, :compact, "3.1"], [Enumerator::Lazy, :compact, "3.1"],
    [Class, :subclasses, "3.1"], [Class, :attached_object, "3.2"],
    [Integer, :ceildiv, "3.2"], [Integer.singleton_class, :try_convert, "3.1"],
    [MatchData, :match, "3.1"], [MatchData, :match_length, "3.1"], [MatchData, :byteoffset, "3.2"],
    [MatchData, :bytebegin, "3.4"], [MatchData, :byteend, "3.4"],
    [String, :byteindex, "3.2"], [String, :byterindex, "3.2"], [String, :bytesplice, "3.2"],
    [String, :append_as_bytes, "3.4"],
    [Struct.singleton_class, :keyword_init?, "3.1"],
    [Module, :refinements, "3.2"], [Module, :undefined_instance_methods, "3.2"], [Module, :set_temporary_name, "3.3"],
    [Range, :overlap?, "3.3"],
    [Regexp.singleton_class, :linear_time?, "3.2"], [Regexp.singleton_class, :timeout, "3.2"],
    [Regexp.singleton_class, :timeout=, "3.2"],
    [Enumerator.singleton_class, :product, "3.2"],
    [Fiber.singleton_class, :[], "3.2"], [Fiber.singleton_class, :[]=, "3.2"], [Fiber, :storage, "3.2"], [Fiber, :storage=, "3.2"],
  ].freeze

  # [owner, constant, the Ruby version that added it].
  ADDED_CONSTANTS = [
    [Object, :Data, "3.2"], [Object, :Refinement, "3.1"], [Enumerator, :Product, "3.2"], [ObjectSpace, :WeakKeyMap, "3.3"],
  ].freeze

  ADDED_METHODS.each do |owner, name, _version|
    next unless owner.method_defined?(name) || owner.private_method_defined?(name)
    program = method(:program?)
    # The method `super` reaches is Ruby's own (C, or <internal:…> Ruby), not one the program defined.
    builtin = ->(m) { m.nil? || m.source_location.nil? || m.source_location[0].start_with?("<internal:") }
    owner.prepend(Module.new do
      define_method(name) do |*args, **options, &block|
        # (A program that defines the method itself, a backport, gets its own.)
        if program.call(caller_locations(1, 1)&.first) && builtin.call(method(name).super_method)
          raise NoMethodError.new("undefined method `#{name}' for #{inspect[0, 60]}:#{self.class}", name, args, receiver: self)
        end
        super(*args, **options, &block)
      end
      # A program that asks respond_to? first (a feature test) gets 3.0's answer.
      define_method(:respond_to?) do |method_name, include_all = false|
        if method_name.to_sym == name && program.call(caller_locations(1, 1)&.first) && builtin.call(method(name).super_method)
          return false
        end
        super(method_name, include_all)
      end
    end)
  end

  # x86-64 (LP64), not wasm32: a Fixnum is a machine word of 8 bytes, and Bignums are counted in
  # 64-bit words. (Integer#size is the only core method that shows the word size.) The library
  # keeps the real size: it may pair it with this machine's pack formats.
  program = method(:program?)
  Integer.prepend(Module.new do
    define_method(:size) do
      return super() unless program.call(caller_locations(1, 1)&.first)
      return 8 if self >= -(2**62) && self < 2**62
      (super() + 7) / 8 * 8
    end
  end)

  hidden = {}.compare_by_identity
  ADDED_CONSTANTS.each do |owner, name, _version|
    next unless owner.const_defined?(name, false)
    (hidden[owner] ||= {})[name] = owner.const_get(name, false)
    owner.send(:remove_const, name)
  end
  program = method(:program?)
  Module.prepend(Module.new do
    define_method(:const_missing) do |name|
      value = hidden[self]&.[](name)
      caller = caller_locations(1, 4).find { |l| !l.path.to_s.start_with?("/benchtop/") }
      return value if !value.nil? && !program.call(caller)
      super(name)
    end
  end)

  # Syntax newer than 3.0, as Prism's node for it: [node type, what, version].
  class Finder < Prism::Visitor
    attr_reader :found

    def initialize
      super
      @found = nil
    end

    def note(node, what, version)
      @found ||= [node.location.start_line, what, version]
    end

    def visit_it_local_variable_read_node(node)
      note(node, :it, "3.4")
      super
    end

    def visit_assoc_node(node)
      note(node, "hash shorthand `#{node.key.slice}`", "3.1") if node.value.is_a?(Prism::ImplicitNode)
      super
    end

    def visit_block_argument_node(node)
      note(node, "anonymous block forwarding `&`", "3.1") if node.expression.nil?
      super
    end

    def visit_block_parameter_node(node)
      note(node, "an anonymous block parameter `&`", "3.1") if node.name.nil?
      super
    end

    def visit_splat_node(node)
      note(node, "anonymous rest forwarding `*`", "3.2") if node.expression.nil? && forwarding?(node)
      super
    end

    def visit_assoc_splat_node(node)
      note(node, "anonymous keyword forwarding `**`", "3.2") if node.value.nil?
      super
    end

    def visit_pinned_expression_node(node)
      note(node, "a pinned expression `^(…)`", "3.1")
      super
    end

    def visit_pinned_variable_node(node)
      note(node, "a pinned #{node.variable.slice}", "3.1") unless node.variable.is_a?(Prism::LocalVariableReadNode)
      super
    end

    private

    # `*` alone is also 3.0's anonymous rest parameter and `a, * = …`; only an argument forwards.
    def forwarding?(node)
      @arguments ||= []
      @arguments.any? { |args| args.arguments.any? { |a| a.equal?(node) } }
    end

    public

    def visit_arguments_node(node)
      (@arguments ||= []) << node
      super
    ensure
      @arguments.pop
    end
  end

  # The error Ruby 3.0 would give for syntax newer than 3.0 in `source`, or nil.
  def self.too_new(source)
    result = Prism.parse(source, filepath: "test.rb")
    return nil unless result.success? # Ruby itself reports the syntax error
    finder = Finder.new
    result.value.accept(finder)
    return nil unless finder.found
    line, what, version = finder.found
    if what == :it
      # 3.0 parses `it` as a method call: NameError where it runs (here: before anything runs).
      error = NameError.new("undefined local variable or method `it' for main:Object (`it` is Ruby 3.4)", :it)
      error.set_backtrace(["test.rb:#{line}:in `block in <main>'"])
      return error
    end
    SyntaxError.new("test.rb:#{line}: syntax error: #{what} is Ruby #{version} syntax, not Ruby 3.0's")
  end
end
