//! The user guide (`docs/guide/*.md`) and the README: every `pikeshot`
//! command in a `sh` block runs and exits 0, every TOML block is a
//! scenario that runs or a fragment that parses, and the command-line
//! reference (`docs/guide/cli.md`) is what the program's help prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every page the snippets are taken from: the README and each guide page,
/// in name order.
fn pages() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join("docs/guide"))
        .expect("docs/guide is there")
        .map(|e| e.expect("reads docs/guide").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    out.sort();
    out.insert(0, root().join("README.md"));
    out
}

/// A fenced block of a page: its info string's first word, the line its
/// body starts on (1-based) and its body.
struct Block {
    lang: String,
    line: usize,
    body: String,
}

/// The fenced blocks of `text` (``` fences; a block left open runs to the
/// end).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                let info = line.trim_start().trim_start_matches('`').trim();
                open = Some(Block {
                    lang: info.split_whitespace().next().unwrap_or("").to_string(),
                    line: i + 2,
                    body: String::new(),
                });
            }
            (Some(_), true) => out.extend(open.take()),
            (Some(b), false) => {
                b.body.push_str(line);
                b.body.push('\n');
            }
            (None, false) => {}
        }
    }
    out.extend(open);
    out
}

/// The `pikeshot` command lines of a `sh` block, each with its line:
/// continuation lines (`\` at the end) joined, a `$ ` prompt dropped, and
/// `pikeshot serve` (which runs until stopped) left out.
fn commands(b: &Block) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in b.body.lines().enumerate() {
        let (start, mut text) = match pending.take() {
            Some((s, t)) => (s, t + " " + line.trim()),
            None => (b.line + i, line.trim().to_string()),
        };
        if let Some(cut) = text.strip_suffix('\\') {
            pending = Some((start, cut.trim_end().to_string()));
            continue;
        }
        if let Some(rest) = text.strip_prefix("$ ") {
            text = rest.to_string();
        }
        let mut words = text.split_whitespace();
        if words.next() == Some("pikeshot") && words.next() != Some("serve") {
            out.push((start, text));
        }
    }
    out
}

/// A scratch folder to run snippets in: `scenarios` links to the shipped
/// ones, so a command reads them as the guide names them and writes its
/// `reports/` here.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::os::unix::fs::symlink(root().join("scenarios"), dir.path().join("scenarios"))
        .expect("links the scenarios");
    dir
}

/// Runs `line` with `sh` in `dir`, the `pikeshot` under test first on the
/// `PATH`.
fn shell(line: &str, dir: &Path) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_pikeshot"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin];
    paths.extend(std::env::split_paths(&path));
    Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

/// `line` without its trailing shell comment (a `#` starting a word
/// outside quotes), which `sh` would not run either: the same command with
/// two comments is one command.
fn uncommented(line: &str) -> &str {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') if prev.is_whitespace() => return line[..i].trim_end(),
            _ => {}
        }
        prev = c;
    }
    line
}

#[test]
fn a_trailing_comment_is_not_part_of_the_command() {
    assert_eq!(
        uncommented("pikeshot report scenarios --check   # every *.toml"),
        "pikeshot report scenarios --check"
    );
    assert_eq!(
        uncommented("pikeshot run a.toml --target 'x # y' # z"),
        "pikeshot run a.toml --target 'x # y'"
    );
    assert_eq!(
        uncommented("pikeshot run a#b.toml"),
        "pikeshot run a#b.toml"
    );
}

/// Whether a TOML block is a whole scenario (it names its `system`).
fn is_scenario(body: &str) -> bool {
    body.lines()
        .any(|l| l.trim_start().starts_with("system ") || l.trim_start().starts_with("system="))
}

/// A snippet to run: a `pikeshot` command line, or a scenario's text run
/// with `pikeshot run`.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Snippet {
    Command(String),
    Scenario(String),
}

impl Snippet {
    /// Runs the snippet in a scratch folder of its own; the error to
    /// report where it fails.
    fn run(&self) -> Result<(), String> {
        let dir = scratch();
        match self {
            Snippet::Command(cmd) => {
                let o = shell(cmd, dir.path());
                if o.status.success() {
                    return Ok(());
                }
                Err(format!(
                    "`{cmd}` exited {:?}: {}",
                    o.status.code(),
                    String::from_utf8_lossy(&o.stderr)
                ))
            }
            Snippet::Scenario(body) => {
                std::fs::write(dir.path().join("snippet.toml"), body).expect("writes");
                let o = shell("pikeshot run snippet.toml --plots none -q", dir.path());
                if o.status.success() {
                    return Ok(());
                }
                Err(format!(
                    "the scenario does not run: {}",
                    String::from_utf8_lossy(&o.stderr)
                ))
            }
        }
    }
}

/// Runs each snippet on as many threads as there are cores (each in its
/// own folder, so none sees another's output); the results in `snippets`'
/// order.
fn run_all(snippets: &[Snippet]) -> Vec<Result<(), String>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![Ok(()); snippets.len()]);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(snippets.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(snippet) = snippets.get(i) else {
                        break;
                    };
                    let r = snippet.run();
                    results.lock().unwrap()[i] = r;
                }
            });
        }
    });
    results.into_inner().unwrap()
}

#[test]
fn every_guide_snippet_runs() {
    let mut failed = Vec::new();
    let mut ran = 0;
    // Each snippet with every place it is shown: the same command in two
    // pages runs once (in a fresh folder its output is the same).
    let mut snippets: Vec<Snippet> = Vec::new();
    let mut places: Vec<Vec<String>> = Vec::new();
    let mut add =
        |snippet: Snippet, place: String| match snippets.iter().position(|s| *s == snippet) {
            Some(i) => places[i].push(place),
            None => {
                snippets.push(snippet);
                places.push(vec![place]);
            }
        };
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("reads the page");
        let name = page
            .strip_prefix(root())
            .unwrap_or(&page)
            .display()
            .to_string();
        for b in blocks(&text) {
            match b.lang.as_str() {
                "sh" => {
                    for (line, cmd) in commands(&b) {
                        ran += 1;
                        let cmd = uncommented(&cmd).to_string();
                        add(Snippet::Command(cmd), format!("{name}:{line}"));
                    }
                }
                "toml" if is_scenario(&b.body) => {
                    ran += 1;
                    add(Snippet::Scenario(b.body), format!("{name}:{}", b.line));
                }
                "toml" => {
                    ran += 1;
                    if let Err(e) = b.body.parse::<toml::Table>() {
                        failed.push(format!("{name}:{}: not TOML: {e}", b.line));
                    }
                }
                _ => {}
            }
        }
    }
    for (result, places) in run_all(&snippets).into_iter().zip(&places) {
        if let Err(e) = result {
            failed.extend(places.iter().map(|p| format!("{p}: {e}")));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // The README and the guide hold commands and scenarios to run: a
    // parser that found none would pass for nothing.
    assert!(ran >= 15, "only {ran} snippets found");
}

/// The subcommands `pikeshot --help` lists (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's name starts its line; its help's further lines are
        // indented more.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// `pikeshot ARGS --help` at 100 columns, with no terminal to measure.
fn help(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_pikeshot"))
        .args(args)
        .arg("--help")
        .env("COLUMNS", "100")
        .stdin(Stdio::null())
        .output()
        .expect("runs");
    assert!(o.status.success(), "{args:?} --help failed");
    String::from_utf8(o.stdout).expect("UTF-8 help")
}

/// The command-line reference as the program's help gives it.
fn reference() -> String {
    let top = help(&[]);
    let mut out = String::from(
        "# Command-line reference\n\n\
         What `pikeshot --help` and `pikeshot COMMAND --help` print. This page\n\
         is generated from the program: a test (`cargo test --test it guide`)\n\
         fails when it differs, and `PIKESHOT_BLESS=1 cargo test --test it\n\
         guide::cli_reference` writes it again.\n\n",
    );
    let section =
        |title: &str, text: &str| format!("## {title}\n\n```text\n{}\n```\n\n", text.trim_end());
    out.push_str(&section("pikeshot", &top));
    for c in subcommands(&top) {
        out.push_str(&section(&format!("pikeshot {c}"), &help(&[&c])));
    }
    format!("{}\n", out.trim_end())
}

#[test]
fn cli_reference_is_the_programs_help() {
    let path = root().join("docs/guide/cli.md");
    let want = reference();
    assert!(
        want.contains("## pikeshot run") && want.contains("--method"),
        "the help lists no `run` and its flags: {want}"
    );
    if std::env::var_os("PIKESHOT_BLESS").is_some() {
        std::fs::write(&path, &want).expect("writes docs/guide/cli.md");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/guide/cli.md differs from the program's help; \
         PIKESHOT_BLESS=1 cargo test --test it guide::cli_reference writes it again"
    );
}
