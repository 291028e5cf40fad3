/// A list that holds its first element inline: most of a request's lists (its URL requests,
/// tasks, metrics) hold one element, and one inline costs no allocation, where an array
/// allocates its storage on the first append and frees it after. Closures go in a
/// `ClosureList`, or in a struct around them (`StoredClosure`, `ResponseDelivery`), which
/// stores them as written.
struct SmallList<Element> {
    private var head: Element?
    private var tail: [Element] = []

    init() {}

    mutating func append(_ element: Element) {
        if head == nil { head = element } else { tail.append(element) }
    }

    mutating func removeAll() {
        head = nil
        tail = []
    }
}

extension SmallList: RandomAccessCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : 1 + tail.count }

    subscript(position: Int) -> Element {
        precondition(position >= 0 && position < endIndex, "SmallList index out of range")
        return position == 0 ? head.unsafelyUnwrapped : tail[position - 1]
    }

    var first: Element? { head }
    var last: Element? { tail.last ?? head }
}

extension SmallList: Sendable where Element: Sendable {}
