// Package schema holds the published JSON Schema of the review exchange
// format, embedded so that the server validates against exactly the file
// that editors are pointed at, without any network access.
package schema

import _ "embed"

// ID is the schema's $id, the URL editors and the validator know it by.
const ID = "https://leanreview.dev/schema/review-exchange.v1.schema.json"

// JSON is the text of review-exchange.v1.schema.json (draft 2020-12).
//
//go:embed review-exchange.v1.schema.json
var JSON []byte
