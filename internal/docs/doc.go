// Package docs has no code of its own: its tests hold ARCHITECTURE.md and
// the packages' doc comments to the code they describe, so that a new
// package, lock or lazy field, or a package doc naming a package it does
// not use, fails a test instead of drifting.
package docs
