@testable import AFCore
import Testing

/// Reading a Cache-Control value (RFC 9111 §5.2): the directives a private cache acts on.
struct CacheControlTests {
    @Test func namesAreCaseInsensitiveAndValuesMayBeQuoted() {
        let control = CacheControl(#"No-Store, MAX-AGE="60", min-fresh=5 ,max-stale = 7, Public"#)
        #expect(control.noStore && control.isPublic && !control.isPrivate && !control.noCache)
        #expect(control.maxAge == 60 && control.minFresh == 5 && control.maxStale == 7)
    }

    @Test func theFirstOfARepeatedDirectiveCounts() {
        #expect(CacheControl("max-age=10, max-age=99").maxAge == 10)
        #expect(CacheControl("max-age=x, max-age=99").maxAge == nil)
    }

    @Test func maxStaleWithoutAValueAcceptsAnyStaleness() {
        #expect(CacheControl("max-stale").maxStale == .infinity)
        #expect(CacheControl("max-stale=").maxStale == .infinity)
        #expect(CacheControl("max-stale=soon").maxStale == nil)
        #expect(CacheControl("no-cache").maxStale == nil)
    }

    @Test func commasInsideQuotesDoNotEndADirective() {
        let control = CacheControl(#"private="set-cookie, no-store", must-revalidate"#)
        #expect(control.isPrivate && control.mustRevalidate && !control.noStore)
    }

    @Test func negativeOrMalformedSecondsAreIgnored() {
        #expect(CacheControl("max-age=-1").maxAge == nil)
        #expect(CacheControl("max-age=1.5").maxAge == nil)
        #expect(CacheControl("min-fresh").minFresh == nil)
        #expect(CacheControl("max-age=99999999999999999999").maxAge == nil)
        // As Swift's Int(_:) reads them: a plus sign, and minus zero.
        #expect(CacheControl("max-age=+5").maxAge == 5)
        #expect(CacheControl("max-age=-0").maxAge == 0)
        #expect(CacheControl("max-age=+").maxAge == nil)
    }

    @Test func leadingEqualsSignsAreSkipped() {
        #expect(CacheControl("=no-store").noStore)
        #expect(CacheControl(" = no-cache").noCache)
        #expect(CacheControl("==max-age=5, max-age=9").maxAge == 5)
    }

    @Test func emptyPartsAndOtherDirectivesMeanNothing() {
        #expect(CacheControl(" , ,, =5, s-maxage=30, only-if-cached") == CacheControl("only-if-cached"))
        #expect(CacheControl(nil) == CacheControl(""))
        #expect(CacheControl("max-age=x") == CacheControl(""))
    }
}
