package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// attack3Tree builds a home, a project and PATH directories under a
// temporary directory, and the context a command runs in there: HOME
// is the built home, PATH its ~/.local/bin and ~/bin before the
// system's.
func attack3Tree(t *testing.T) (Context, string) {
	t.Helper()
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(home, "p2")
	for _, d := range []string{".config/git", ".config/spillway", ".local/state/spillway", ".local/bin", "bin", "p2/.git", "p2/src", "p2/build", "p2/docs"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := strings.Join([]string{filepath.Join(home, ".local/bin"), filepath.Join(home, "bin"), "/usr/local/bin", "/usr/bin", "/bin"}, ":")
	return Context{Dir: proj, PATH: path, Home: home}, home
}

// attack3Dirs are writes into a directory whose files land in protected
// places: a copy into a directory target writes DIR/basename(source), a
// recursive copy or an archive anything under DIR. {H} is the home.
var attack3Dirs = []string{
	`mkdir -p g && printf '[core]\n\tfsmonitor = "id > /tmp/x; false"\n' > g/config && cp -r g/. ~/.config/git && git status`,
	`cp -r g/. ~/.config/git`,
	`cp -r g/. {H}/.config/git`,
	`cp -r g/. "$HOME/.config/git"`,
	`cp -r g ~/.config/git`,
	`cp -r sp/. ~/.config/spillway`,
	`cp sp/config.toml ~/.config/spillway/`,
	`cp st/state.json ~/.local/state/spillway/`,
	`cp st/state.json ~/.local/state/spillway/.`,
	`cp -t ~/.local/state/spillway st/state.json`,
	`cp --target-directory=~/.local/state/spillway st/state.json`,
	`cp -t ~/.config/git g/config`,
	`cp g/config ~/.config/git/`,
	`cp g/config ~/.config/git/.`,
	`cp g/config ~/.config/git`,
	`cp x.json /root/.claude.json`,
	`cp .claude.json ~/`,
	`cp x /usr/local/bin/`,
	`cp -r d/. /usr/local/bin`,
	`cp x ~/bin/`,
	`cp x ~/.local/bin/`,
	`cp x ~/.local/bin`,
	`cp x y ~/bin`,
	`cp d/ld.so.preload /etc/`,
	`cp d/gitconfig /etc/`,
	`cp -r d/. /etc`,
	`cp -a d/. /etc/`,
	`cp -R d/. ~`,
	`cp -r d/. ~/`,
	`cp d/.* ~/`,
	`mv x /usr/local/bin/`,
	`mv hooks .git/`,
	`install -m 755 x ~/.local/bin/`,
	`ln -s /tmp/x ~/.local/bin/`,
	`rsync -a d/ ~/.config/git`,
	`rsync -a d/ /etc/`,
	`tar -xf a.tar -C /etc`,
	`tar xf a.tar -C ~/.config`,
	`tar -x -f a.tar --directory=/usr/local/bin`,
	`unzip a.zip -d ~`,
	`unzip -o a.zip -d /etc`,
	`mkdir -p /etc/claude-code/managed-settings.d && printf '{"permissions":{"allow":["Bash(perl:*)"]}}' > /etc/claude-code/managed-settings.d/a.json`,
	`cp a.json /etc/claude-code/managed-settings.d/`,
	`cp -r m/. /etc/claude-code`,
	`printf x > ~/.claude.json`,
	`printf x > ~/.config/git/attributes`,
	`printf '[rules]\ndefault="allow"\n' > ~/.config/spillway/config.toml`,
	`cp -r src/. .`,
}

// attack3Everyday are copies into plain project directories: allowed.
var attack3Everyday = []string{
	`cp -r src/. build/`,
	`cp -r src build`,
	`cp a.txt docs/`,
	`cp a.txt b.txt docs`,
	`cp a.txt docs/.`,
	`cp *.txt build/`,
	`mkdir -p out && cp x out/`,
	`cp -t build a.txt`,
	`mv a.txt docs/`,
	`rsync -a src/ build/`,
	`tar -xf a.tar -C build`,
	`unzip a.zip -d build`,
	`cp a.txt /tmp/`,
}

// TestAttack3DirectoryTargets: under default ask with cp, mv, mkdir and
// printf allowed (and default allow), every write of attack3Dirs is
// not allowed; the everyday copies stay allowed.
func TestAttack3DirectoryTargets(t *testing.T) {
	cx, home := attack3Tree(t)
	askDefault, allowDefault := round2Sets(t)
	allowDefault.Rules = nil
	askDefault.Rules = append(askDefault.Rules, corpusRules(t, Allow, "mv *", "install *", "ln *", "rsync *", "tar *", "unzip *", "git status")...)
	for _, in := range attack3Dirs {
		in = strings.ReplaceAll(in, "{H}", home)
		for name, s := range map[string]*Set{"default ask": askDefault, "default allow": allowDefault} {
			if v := s.CheckIn(in, cx); v.Decision == Allow {
				t.Errorf("%s: %q is allowed;%s", name, in, partsText(v))
			}
		}
	}
	for _, in := range attack3Everyday {
		for name, s := range map[string]*Set{"default ask": askDefault, "default allow": allowDefault} {
			if v := s.CheckIn(in, cx); v.Decision != Allow {
				t.Errorf("%s: %q = %v;%s", name, in, v.Decision, partsText(v))
			}
		}
	}
}

// ProtectedFile, the list the file tools hold writes to, holds the names
// the attack wrote with no question.
func TestProtectedFileList(t *testing.T) {
	path := []string{"/h/.local/bin", "/usr/local/bin"}
	for _, p := range []string{
		"/p/.git/commondir", "/p/.git/config.worktree", "/p/.git/modules/m/config", "/p/sub/.git", "/p/.gitmodules",
		"/etc/gitconfig", "/etc/ld.so.preload", "/etc/profile.d/x.sh", "/etc/bash.bashrc", "/etc/environment",
		"/etc/claude-code/managed-settings.json", "/etc/claude-code/managed-settings.d/a.json", "/h/.claude.json",
		"/usr/lib/python3/dist-packages/x.pth", "/p/sitecustomize.py", "/p/usercustomize.py", "/h/.vimrc", "/p/.exrc",
		"/p/.cargo/config.toml", "/p/.claude/hooks/h.sh", "/p/node_modules/.bin/jest", "/h/.local/bin/ls",
		"/usr/local/bin/git", "/h/.config/git/config", "/h/.config/git/attributes", "/h/.config/spillway/config.toml",
		"/h/.config/spillway/serve-8080.token", "/h/.local/state/spillway/state.json",
	} {
		if ProtectedFile(p, path) == "" {
			t.Errorf("%s is not protected", p)
		}
	}
	for _, p := range []string{"/p/main.go", "/p/docs/a.md", "/p/build/x.o", "/p/CLAUDE.md", "/p/bin.txt"} {
		if why := ProtectedFile(p, path); why != "" {
			t.Errorf("%s is protected: %s", p, why)
		}
	}
}
