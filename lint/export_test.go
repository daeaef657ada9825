package lint

// CorpusFiles lets the external tests read the corpus as the internal
// ones do.
var CorpusFiles = corpusFiles
