import Foundation

/// A step from a node to one of its children: a key of an object or a position in an array.
enum FormPathStep {
    case key(String)
    case index(Int)
}

/// One node of the tree an `Encodable` value is first encoded into.
///
/// Values are stored by path from the root, so every container reaching the same path writes into
/// the same node. A step of the other shape than the node's (a key into an array, a position into
/// an object) replaces what the node held, as does a value stored where a node already is.
final class FormNode {
    enum Shape {
        case empty
        case string
        case array
        case object

        var name: String {
            switch self {
            case .empty: "nothing"
            case .string: "a single value"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    private(set) var shape = Shape.empty
    private(set) var string = ""
    private(set) var items: [FormNode] = []
    /// An object's children, in the order their keys were first written.
    private(set) var pairs: [(key: String, node: FormNode)] = []
    private var positions: [String: Int] = [:]

    /// Stores `value` at `path`, below this node.
    func store(_ value: String, at path: ArraySlice<FormPathStep>) {
        guard let step = path.first else {
            become(.string)
            string = value
            return
        }
        child(at: step).store(value, at: path.dropFirst())
    }

    /// The child at `step`, added if missing. A position past the end adds the next item.
    private func child(at step: FormPathStep) -> FormNode {
        switch step {
        case let .index(index):
            if shape != .array { become(.array) }
            if items.indices.contains(index) { return items[index] }
            let child = FormNode()
            items.append(child)
            return child
        case let .key(key):
            if shape != .object { become(.object) }
            if let position = positions[key] { return pairs[position].node }
            let child = FormNode()
            positions[key] = pairs.count
            pairs.append((key, child))
            return child
        }
    }

    private func become(_ newShape: Shape) {
        shape = newShape
        string = ""
        items = []
        pairs = []
        positions = [:]
    }
}

/// Turns a `FormNode` tree into `key=value` pairs joined by `&`.
///
/// When sorting, the pairs below each object or array are sorted as whole escaped strings, one
/// level at a time: a child's pairs stay together, placed by the text they start with.
struct FormSerializer {
    let options: URLEncodedFormEncoder

    func serialize(_ root: FormNode) -> String {
        joined(root.pairs.map { serialize($0.node, forKey: options.keyEncoding.encode($0.key)) })
    }

    private func serialize(_ node: FormNode, forKey key: String) -> String {
        switch node.shape {
        case .empty:
            ""
        case .string:
            "\(escape(key))=\(escape(node.string))"
        case .array:
            joined(node.items.enumerated().map { index, item in
                serialize(item, forKey: options.arrayEncoding.encode(key, atIndex: index))
            })
        case .object:
            joined(node.pairs.map { subkey, child in
                let path = options.keyPathEncoding.encodeKeyPath(key, subkey: options.keyEncoding.encode(subkey))
                return serialize(child, forKey: path)
            })
        }
    }

    private func joined(_ segments: [String]) -> String {
        let segments = segments.filter { !$0.isEmpty }
        return (options.alphabetizeKeyValuePairs ? segments.sorted() : segments).joined(separator: "&")
    }

    private func escape(_ string: String) -> String {
        var allowed = options.allowedCharacters
        allowed.insert(" ")
        let escaped = string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string
        return options.spaceEncoding.encode(escaped)
    }
}
