import CCurlShim

/// Known faults of the running libcurl that the engine steers around.
enum LibcurlQuirks {
    /// libcurl before 8.0 (Debian 12 ships 7.88.1) fails a request sent on a cleartext HTTP/2
    /// connection it reuses ("Error in the HTTP2 framing layer"), so there each
    /// h2c request gets a connection of its own.
    static let breaksReusedPriorKnowledgeConnections = afc_curl_version_number() < 0x08_00_00
}
