import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `.af` namespace on types AF extends.
public struct AlamofireExtension<ExtendedType> {
    /// The extended value.
    public private(set) var type: ExtendedType

    /// Wraps `type`.
    public init(_ type: ExtendedType) {
        self.type = type
    }
}

/// A type with the `.af` namespace.
public protocol AlamofireExtended {
    /// The extended type.
    associatedtype ExtendedType

    /// The namespace on the type.
    static var af: AlamofireExtension<ExtendedType>.Type { get set }
    /// The namespace on an instance.
    var af: AlamofireExtension<ExtendedType> { get set }
}

extension AlamofireExtended {
    /// The namespace on the type.
    public static var af: AlamofireExtension<Self>.Type {
        get { AlamofireExtension<Self>.self }
        set {}
    }

    /// The namespace on an instance.
    public var af: AlamofireExtension<Self> {
        get { AlamofireExtension(self) }
        set {}
    }
}

extension URLSessionConfiguration: AlamofireExtended {}

extension AlamofireExtension where ExtendedType: URLSessionConfiguration {
    /// `URLSessionConfiguration.default` with `HTTPHeaders.default`.
    public static var `default`: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.headers = .default
        return configuration
    }

    /// `URLSessionConfiguration.ephemeral` with `HTTPHeaders.default`.
    public static var ephemeral: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.headers = .default
        return configuration
    }
}
