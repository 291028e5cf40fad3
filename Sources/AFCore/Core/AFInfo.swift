/// Facts about this build of AF.
public enum AFInfo {
    /// AF's version; the Alamofire API level it follows is 5.12.
    public static let version = "0.1.0"
}
