// Package page is the former name of package aipref/page, kept so that
// code written against it compiles.
//
// Deprecated: use github.com/rep-toolkit/rep/aipref/page.
package page

import "github.com/rep-toolkit/rep/aipref/page"

// Evidence is aipref/page's Evidence.
var Evidence = page.Evidence
