// Package transport is the language server's JSON-RPC connection: it
// frames and bounds each message (MaxMessageSize, MaxNesting), validates
// it in one walk, answers what is invalid or over a limit, runs the read
// loop that hands each message to the session in order, writes replies
// and the server's own requests and notifications, and decodes the text
// of didOpen and didChange in place.
//
// The transport is ours end to end. go.lsp.dev/jsonrpc2 is kept for its
// error type only, the one the protocol library types its codes with.
// Its stream and connection could not face a client that is hostile or
// just buggy: the connection ends, silently, on the first message its
// stream cannot read; its decoder recurses, so deep nesting overflows
// the stack; it has no size limit; its ID cannot hold "" nor an integer
// past int32; and each message was decoded, copied and encoded again on
// its way (ARCHITECTURE.md, "The transport", has the measured cost; the
// benchmarks here set the two side by side).
//
// It knows nothing of the session, which builds a Conn over a Transport
// and hands it the function that handles each message.
package transport
