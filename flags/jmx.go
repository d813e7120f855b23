package flags

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/jitsim/jitsim/jdk"
)

// The management agent's remote connector: -Dcom.sun.management.jmxremote.port starts it as
// the VM comes up, and a bad setting ends the start with the agent's error and its stack trace
// on stderr, exit status 1, no version banner. jitsim checks what the command line alone
// decides: the port and RMI port numbers, and a password file that does not exist: the one the
// command line names, or, with authentication left on, the default one in the JDK's own
// directory (conf/management/jmxremote.password), which a JDK ships only as a template. jitsim
// cannot know that directory and names it javaHomePlaceholder. A port out of range fails only
// when the connector binds; it is not modelled. Every text and line number below was observed
// on OpenJDK 17.0.15 and Temurin 25.0.3.

// javaHomePlaceholder stands for the JDK's directory (java.home) in the texts that name it.
const javaHomePlaceholder = "<java.home>"

// jmxLines are the line numbers the agent's stack traces show, per recorded release.
type jmxLines struct {
	releases jdk.Set
	// ConnectorBootstrap.startRemoteConnectorServer where it reports a bad port (parse: where
	// it called Integer.parseInt; negative: where it refused a negative number), for the port
	// and the RMI port; its call of checkPasswordFile and that method's report.
	portReport, portParse, portNegative int
	rmiReport, rmiParse, rmiNegative    int
	passwordCall, passwordReport        int
	// Agent.startAgent's two frames.
	agentInner, agentOuter int
	// Integer.parseInt(String, int) where it throws for a bad digit or an overflow, an empty
	// string, a lone sign, a first character below '0' that is no sign; parseInt(String).
	intDigit, intEmpty, intSign, intFirst, intOuter int
}

var jmxTraceLines = []jmxLines{
	{releases: jdk.Of(jdk.R17), portReport: 338, portParse: 336, portNegative: 341, rmiReport: 354, rmiParse: 351, rmiNegative: 357,
		passwordCall: 437, passwordReport: 595, agentInner: 447, agentOuter: 599,
		intDigit: 668, intEmpty: 678, intSign: 658, intFirst: 654, intOuter: 786},
	{releases: jdk.Of(jdk.R25), portReport: 337, portParse: 335, portNegative: 340, rmiReport: 353, rmiParse: 350, rmiNegative: 356,
		passwordCall: 436, passwordReport: 594, agentInner: 445, agentOuter: 601,
		intDigit: 565, intEmpty: 542, intSign: 565, intFirst: 565, intOuter: 662},
}

const (
	jmxBootstrap = "\tat jdk.management.agent/sun.management.jmxremote.ConnectorBootstrap."
	jmxAgent     = "\tat jdk.management.agent/jdk.internal.agent.Agent.startAgent(Agent.java:%d)\n"
)

// javaParseInt is Integer.parseInt's answer for s: the number, or the line it throws at.
func javaParseInt(s string, l jmxLines) (int64, int) {
	switch {
	case s == "":
		return 0, l.intEmpty
	case (s[0] == '+' || s[0] == '-') && len(s) == 1:
		return 0, l.intSign
	case s[0] < '0' && s[0] != '+' && s[0] != '-':
		return 0, l.intFirst
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, l.intDigit
	}
	return n, 0
}

// checkJMXAgent is the remote connector's start (after the system properties' checks).
func (p *parser) checkJMXAgent() error {
	port, ok := p.res.Property("com.sun.management.jmxremote.port")
	if !ok {
		return nil
	}
	var l jmxLines
	for _, r := range jmxTraceLines {
		if r.releases.Has(p.o.JDK) {
			l = r
		}
	}
	if l.releases == 0 {
		return nil
	}
	agent := fmt.Sprintf(jmxAgent, l.agentInner) + fmt.Sprintf(jmxAgent, l.agentOuter)
	number := func(name, v string, report, parse, negative int) error {
		n, at := javaParseInt(v, l)
		var b strings.Builder
		switch {
		case at != 0:
			nfe := fmt.Sprintf("java.lang.NumberFormatException: For input string: %q", v)
			fmt.Fprintf(&b, "Error: Invalid %s number: %s\njdk.internal.agent.AgentConfigurationError: %s\n", name, v, nfe)
			fmt.Fprintf(&b, "%sstartRemoteConnectorServer(ConnectorBootstrap.java:%d)\n%sCaused by: %s\n", jmxBootstrap, report, agent, nfe)
			b.WriteString("\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)\n")
			fmt.Fprintf(&b, "\tat java.base/java.lang.Integer.parseInt(Integer.java:%d)\n", at)
			fmt.Fprintf(&b, "\tat java.base/java.lang.Integer.parseInt(Integer.java:%d)\n", l.intOuter)
			fmt.Fprintf(&b, "%sstartRemoteConnectorServer(ConnectorBootstrap.java:%d)\n\t... 2 more\n", jmxBootstrap, parse)
		case n < 0:
			fmt.Fprintf(&b, "Error: Invalid %s number: %s\njdk.internal.agent.AgentConfigurationError\n", name, v)
			fmt.Fprintf(&b, "%sstartRemoteConnectorServer(ConnectorBootstrap.java:%d)\n%s", jmxBootstrap, negative, agent)
		default:
			return nil
		}
		return &Error{Text: b.String()}
	}
	if err := number("com.sun.management.jmxremote.port", port, l.portReport, l.portParse, l.portNegative); err != nil {
		return err
	}
	if rmi, ok := p.res.Property("com.sun.management.jmxremote.rmi.port"); ok {
		if err := number("com.sun.management.jmxremote.rmi.port", rmi, l.rmiReport, l.rmiParse, l.rmiNegative); err != nil {
			return err
		}
	}
	if auth, ok := p.res.Property("com.sun.management.jmxremote.authenticate"); ok && !strings.EqualFold(auth, "true") {
		return nil
	}
	file, ok := p.res.Property("com.sun.management.jmxremote.password.file")
	if !ok {
		// The default file: a stock JDK has none (17.0.15 and 25.0.3 here).
		file = javaHomePlaceholder + "/conf/management/jmxremote.password"
	} else {
		stat := p.o.Stat
		if stat == nil {
			stat = os.Stat
		}
		if _, err := stat(file); err == nil {
			return nil
		}
	}
	return &Error{Text: "Error: Password file not found: " + file + "\njdk.internal.agent.AgentConfigurationError\n" +
		fmt.Sprintf("%scheckPasswordFile(ConnectorBootstrap.java:%d)\n", jmxBootstrap, l.passwordReport) +
		fmt.Sprintf("%sstartRemoteConnectorServer(ConnectorBootstrap.java:%d)\n", jmxBootstrap, l.passwordCall) + agent}
}
