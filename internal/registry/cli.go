package registry

// CLI is a tool's command as a person meets it (spillway NAME --help):
// what the tool's parameters and its description for the model do not
// say. It is declared with the tool, beside its description.
type CLI struct {
	// Short is the command's line in spillway --help; the tool's title
	// when empty.
	Short string
	// Long says what the command does for a person; the help follows it
	// with the model's description.
	Long string
	// Example holds command lines, each indented two spaces.
	Example string
	// Flags are the help of the flags a person uses otherwise than the
	// model uses its parameter, by parameter name.
	Flags map[string]string
	// StdinArg, when set, names what the first argument holds (the
	// patch): "-" reads it from stdin, and so does no argument when stdin
	// is not a terminal.
	StdinArg string
	// ExitStatus says what the command's exit status means, when it is
	// not the CLI's usual 0, 1 or 2.
	ExitStatus string
	// Instead, for a tool the CLI has no command of (MCPOnly), says what
	// a person does there instead.
	Instead string
}
