@testable import AFCore
import Testing

/// The list a request keeps its attempts in: its first element is held apart from the rest,
/// which must not show.
struct SmallListTests {
    @Test func anEmptyListHasNoElements() {
        let list = SmallList<Int>()
        #expect(list.isEmpty)
        #expect(list.count == 0)
        #expect(list.first == nil)
        #expect(list.last == nil)
        #expect(Array(list) == [])
    }

    @Test func elementsKeepTheirOrderAcrossTheFirstAndTheRest() {
        var list = SmallList<String>()
        list.append("a")
        #expect(list.count == 1)
        #expect(list.first == "a")
        #expect(list.last == "a")
        list.append("b")
        list.append("c")
        #expect(Array(list) == ["a", "b", "c"])
        #expect(list[0] == "a" && list[1] == "b" && list[2] == "c")
        #expect(list.first == "a")
        #expect(list.last == "c")
        #expect(list.firstIndex(of: "b") == 1)
    }

    @Test func removingAllEmptiesTheListForReuse() {
        var list = SmallList<Int>()
        list.append(1)
        list.append(2)
        list.removeAll()
        #expect(list.isEmpty)
        list.append(3)
        #expect(Array(list) == [3])
        #expect(list.last == 3)
    }
}
