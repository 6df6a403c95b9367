// Package route is the contract between the HTTP edge and the read and
// write sides: the Router each side mounts its routes on, and the Body
// bound a route declares. The edge implements Router; read and write, which
// never import each other, both mount through it. It holds no handler and
// imports nothing of the project but the root vocabulary.
package route
