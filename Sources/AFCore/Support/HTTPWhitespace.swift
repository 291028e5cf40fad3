/// HTTP's optional whitespace (RFC 9110 §5.6.3): spaces and horizontal tabs, found by bytes.
extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> Substring {
        let utf8 = self.utf8
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = utf8.firstIndex(where: { !isBlank($0) }), let last = utf8.lastIndex(where: { !isBlank($0) })
        else { return self[endIndex...] }
        return Substring(utf8[first...last])
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> Substring { Substring(self).trimmingASCIISpaces() }
}
