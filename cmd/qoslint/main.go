// Command qoslint keeps RoCE fabrics lossless: it checks that every switch and
// GPU host agrees on the RoCE marking chain. The commands are thin: flags here,
// the work in app/.
package main

import (
	"os"

	"github.com/qoslint/qoslint/cmd/qoslint/commands"
)

func main() {
	os.Exit(commands.Execute(os.Args[1:], os.Stdout, os.Stderr))
}
