"""Lists the symbols of a DocC detailed coverage report (argument) that have no abstract and
are AF's own to document; exits 1 when there is any. See scripts/docs.sh for what is left out."""
import sys

# Members that come, undocumented, from other modules' protocols.
INHERITED = {
    "hash(into:)", "hashValue", "insert(_:)", "filter(_:)", "flatMap(_:)", "trimmingPrefix(while:)",
    "formatted(_:)", "subscript(_:)", "first(where:)", "tryFirst(where:)", "tryReduce(_:_:)",
    # FoundationNetworking's URLSession delegate protocols' own defaults.
    "urlSession(_:didReceive:completionHandler:)", "urlSession(_:dataTask:didBecome:)",
    "urlSession(_:task:willBeginDelayedRequest:completionHandler:)",
}
SKIPPED_KINDS = ("CollectionGroup", "Article", "Extended")

missing = []
for line in open(sys.argv[1], encoding="utf-8"):
    fields = [field.strip() for field in line.split("|")]
    if len(fields) < 8 or fields[2] != "false" or fields[1].startswith(SKIPPED_KINDS):
        continue
    # The name column is cut short: take the name from the reference, without DocC's
    # disambiguating suffix.
    last = fields[7].rsplit("/", 1)[-1]
    name = last.split("-", 1)[0] if "(" in last else last
    if name in INHERITED:
        continue
    missing.append(f"{fields[1]}: {fields[7]}")
for entry in missing:
    print("  no doc comment:", entry)
sys.exit(1 if missing else 0)
