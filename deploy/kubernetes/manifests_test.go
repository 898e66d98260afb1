// Package kubernetes holds the manifests of spillway serve on Kubernetes;
// its test decodes them strictly into the API's types.
package kubernetes

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

// decoded holds the objects of the manifests, by kind.
type decoded struct {
	deployments []*appsv1.Deployment
	services    []*corev1.Service
	pdbs        []*policyv1.PodDisruptionBudget
	policies    []*networkingv1.NetworkPolicy
	ingresses   []*networkingv1.Ingress
}

// decodeAll decodes every document of every manifest into its API type,
// strictly: a field the type does not have (a typo, a field at the wrong
// level) fails, as does a duplicate key or a kind this test does not know.
func decodeAll(t *testing.T) decoded {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	var d decoded
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(data, []byte("\n---")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			var meta struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
			}
			if err := yaml.Unmarshal(doc, &meta); err != nil {
				t.Fatalf("%s #%d: %v", f, i, err)
			}
			var obj any
			switch meta.APIVersion + " " + meta.Kind {
			case "apps/v1 Deployment":
				o := &appsv1.Deployment{}
				d.deployments, obj = append(d.deployments, o), o
			case "v1 Service":
				o := &corev1.Service{}
				d.services, obj = append(d.services, o), o
			case "policy/v1 PodDisruptionBudget":
				o := &policyv1.PodDisruptionBudget{}
				d.pdbs, obj = append(d.pdbs, o), o
			case "networking.k8s.io/v1 NetworkPolicy":
				o := &networkingv1.NetworkPolicy{}
				d.policies, obj = append(d.policies, o), o
			case "networking.k8s.io/v1 Ingress":
				o := &networkingv1.Ingress{}
				d.ingresses, obj = append(d.ingresses, o), o
			default:
				t.Fatalf("%s #%d: %s %s is not a kind this test decodes", f, i, meta.APIVersion, meta.Kind)
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				t.Errorf("%s #%d (%s): %v", f, i, meta.Kind, err)
			}
		}
	}
	return d
}

// The strict decoding fails on a field the type does not have.
func TestStrictDecodingFailsOnUnknownField(t *testing.T) {
	doc := []byte("apiVersion: v1\nkind: Service\nspec:\n  publishNotReadyAdresses: true\n")
	if err := yaml.UnmarshalStrict(doc, &corev1.Service{}); err == nil || !strings.Contains(err.Error(), "publishNotReadyAdresses") {
		t.Errorf("a misspelt field decoded: %v", err)
	}
}

func TestManifests(t *testing.T) {
	d := decodeAll(t)
	if len(d.deployments) != 1 || len(d.services) != 1 || len(d.pdbs) != 1 || len(d.policies) != 1 || len(d.ingresses) != 1 {
		t.Fatalf("want one each of Deployment, Service, PodDisruptionBudget, NetworkPolicy, Ingress: %+v", d)
	}
	dep := d.deployments[0]
	pod := dep.Spec.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	args := strings.Join(c.Args, " ")

	// Probes on the endpoints of serve, on its port.
	if p := c.ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/readyz" || p.HTTPGet.Port.String() != "mcp" {
		t.Errorf("readiness probe: %+v", p)
	}
	if p := c.LivenessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" {
		t.Errorf("liveness probe: %+v", p)
	}
	// The drain: started before the SIGTERM, within the grace period.
	if c.Lifecycle == nil || c.Lifecycle.PreStop == nil || c.Lifecycle.PreStop.Exec == nil ||
		!strings.Contains(strings.Join(c.Lifecycle.PreStop.Exec.Command, " "), "POST /drain") {
		t.Errorf("preStop does not POST /drain: %+v", c.Lifecycle)
	}
	drain := regexp.MustCompile(`--drain-timeout=(\S+)`).FindStringSubmatch(args)
	if drain == nil {
		t.Fatalf("no --drain-timeout in %q", args)
	}
	timeout, err := time.ParseDuration(drain[1])
	if err != nil {
		t.Fatal(err)
	}
	if g := pod.TerminationGracePeriodSeconds; g == nil || time.Duration(*g)*time.Second <= timeout {
		t.Errorf("terminationGracePeriodSeconds %v is not above the drain timeout %v", g, timeout)
	}
	// The node id is the pod's name; the token comes from a Secret.
	if !strings.Contains(args, "--node-id=$(POD_NAME)") {
		t.Errorf("no --node-id=$(POD_NAME) in %q", args)
	}
	envs := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		envs[e.Name] = e
	}
	if e := envs["POD_NAME"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != "metadata.name" {
		t.Errorf("POD_NAME: %+v", e)
	}
	if e := envs["SPILLWAY_TOKEN"]; e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
		t.Errorf("SPILLWAY_TOKEN is not from a Secret: %+v", e)
	}
	if strings.Contains(args, "--token") || strings.Contains(args, "--no-token") {
		t.Errorf("a token flag in the arguments: %q", args)
	}
	// Not root, no privilege to gain, resources asked for.
	if sc := pod.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		t.Errorf("pod security context: %+v", sc)
	}
	if sc := c.SecurityContext; sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation || sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
		t.Errorf("container security context: %+v", sc)
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
		t.Errorf("resources: %+v", c.Resources)
	}

	// The Service keeps draining pods reachable for their sessions.
	svc := d.services[0]
	if !svc.Spec.PublishNotReadyAddresses || !selects(svc.Spec.Selector, dep.Spec.Template.Labels) {
		t.Errorf("service: publishNotReadyAddresses %v, selector %v", svc.Spec.PublishNotReadyAddresses, svc.Spec.Selector)
	}
	if pdb := d.pdbs[0]; pdb.Spec.Selector == nil || !selects(pdb.Spec.Selector.MatchLabels, dep.Spec.Template.Labels) || pdb.Spec.MaxUnavailable == nil {
		t.Errorf("pod disruption budget: %+v", pdb.Spec)
	}
	if np := d.policies[0]; !selects(np.Spec.PodSelector.MatchLabels, dep.Spec.Template.Labels) || len(np.Spec.Ingress) == 0 {
		t.Errorf("network policy: %+v", np.Spec)
	}

	// The ingress sticks sessions by the Mcp-Session-Id header and checks
	// readiness.
	ing := d.ingresses[0]
	snippet := ing.Annotations["haproxy.org/backend-config-snippet"]
	for _, want := range []string{"stick store-response res.hdr(mcp-session-id)", "stick match req.hdr(mcp-session-id)", "option persist", "option redispatch"} {
		if !strings.Contains(snippet, want) {
			t.Errorf("the ingress's backend snippet has no %q", want)
		}
	}
	if ing.Annotations["haproxy.org/check-http"] != "/readyz" || ing.Spec.IngressClassName == nil || *ing.Spec.IngressClassName != "haproxy" {
		t.Errorf("ingress: %v %v", ing.Annotations, ing.Spec.IngressClassName)
	}
	if b := ing.Spec.Rules[0].HTTP.Paths[0].Backend.Service; b == nil || b.Name != svc.Name {
		t.Errorf("the ingress does not lead to the service: %+v", b)
	}
}

func selects(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// The Dockerfile cannot be built here (no docker, no registry but
// Debian's, npm's and Go's): this checks what it says instead. Two
// stages, the runtime one with bash, git and coreutils, running as a user
// that is not root, with the binary from the build stage.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	var stages [][]string // the instructions of each stage, continuations joined
	var cur strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") || (line == "" && cur.Len() == 0) {
			continue
		}
		cont := strings.HasSuffix(line, "\\")
		cur.WriteString(strings.TrimSuffix(line, "\\") + " ")
		if cont {
			continue
		}
		instr := strings.TrimSpace(cur.String())
		cur.Reset()
		if instr == "" {
			continue
		}
		word, _, _ := strings.Cut(instr, " ")
		switch strings.ToUpper(word) {
		case "FROM":
			stages = append(stages, []string{instr})
		case "ARG", "RUN", "COPY", "WORKDIR", "ENV", "USER", "EXPOSE", "ENTRYPOINT", "CMD", "LABEL":
			if len(stages) == 0 {
				t.Fatalf("%q before FROM", instr)
			}
			stages[len(stages)-1] = append(stages[len(stages)-1], instr)
		default:
			t.Errorf("unknown instruction %q", instr)
		}
	}
	if len(stages) < 2 {
		t.Fatalf("%d stages, want a build and a runtime stage", len(stages))
	}
	runtime := strings.Join(stages[len(stages)-1], "\n")
	for _, pkg := range []string{"bash", "git", "coreutils"} {
		if !regexp.MustCompile(`apt-get install[^\n]*\b` + pkg + `\b`).MatchString(runtime) {
			t.Errorf("the runtime stage does not install %s", pkg)
		}
	}
	user := regexp.MustCompile(`(?m)^USER (\S+)`).FindStringSubmatch(runtime)
	if user == nil || strings.HasPrefix(user[1], "0") || strings.HasPrefix(user[1], "root") {
		t.Errorf("the runtime stage runs as %v, want a user that is not root", user)
	}
	if !strings.Contains(runtime, "COPY --from=build") {
		t.Error("the runtime stage does not take the binary from the build stage")
	}
	if !strings.Contains(strings.Join(stages[0], "\n"), "go build") {
		t.Error("the first stage does not build spillway")
	}
}
