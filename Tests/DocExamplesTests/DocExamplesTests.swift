import Testing

// Each `<Product>Examples.swift` beside this file holds the example of that product's DocC landing
// page, and each `Articles/<Article>Examples.swift` an article's code, line for line
// (scripts/check-doc-examples.py compares them). The examples are compiled,
// never run: they talk to hosts that do not exist. This test gives the target something to run.
@Test func examplesCompile() {}
