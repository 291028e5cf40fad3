/// An optional value kept out of line: the holder stores one reference (8 bytes) in place of the
/// value itself. For large values that are rarely set, such as errors and seldom-used settings,
/// so that the state every request or transfer carries stays small. Setting a value allocates.
@propertyWrapper
struct OutOfLine<Value> {
    /// Immutable once made: a new value gets a new box.
    private final class Box {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box?

    /// No value (what a property declared without one starts with): nothing to box.
    init() {}

    init(wrappedValue: Value?) {
        box = wrappedValue.map(Box.init)
    }

    var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }

    /// Whether a value is set (`$name`), without copying it out.
    var projectedValue: Bool { box != nil }
}

// The box is immutable, so sharing it is as safe as sharing the value.
extension OutOfLine: @unchecked Sendable where Value: Sendable {}
