//! Errors: did-you-mean, the located message, exit codes and `source()` (`error`).

use pikeshot::error::*;

#[test]
fn suggests_close_names_only() {
    let names = ["woods", "village", "marsh"];
    assert_eq!(did_you_mean("wods", &names).as_deref(), Some("woods"));
    assert_eq!(did_you_mean("vilage", &names).as_deref(), Some("village"));
    assert_eq!(did_you_mean("castle", &names), None);
}

#[test]
fn displays_location_key_and_accepted() {
    let e = InputError::new("unknown terrain \"wods\"")
        .key("units.tercio.terrain")
        .one_of("wods", &["clear", "woods"])
        .at(Some("s.toml"), Some(12));
    let s = e.to_string();
    assert!(s.starts_with("s.toml:12: `units.tercio.terrain`: unknown terrain"));
    assert!(s.contains("accepted: clear, woods"));
    assert!(s.contains("did you mean `woods`?"));
}

#[test]
fn input_exits_2_and_failures_exit_3_with_a_source() {
    use std::error::Error as _;
    assert_eq!(Error::input("bad").exit_code(), 2);
    assert!(Error::input("bad").source().is_none());
    let named = Error::io("nowhere/s.toml", std::io::ErrorKind::NotFound.into());
    assert_eq!(named.exit_code(), 2);
    let io = Error::io("out/x.csv", std::io::Error::other("disk full"));
    assert_eq!(io.exit_code(), 3);
    assert_eq!(io.source().unwrap().to_string(), "disk full");
    let pool = Error::internal("cannot start 4 threads", "no memory");
    assert_eq!(pool.exit_code(), 3);
    assert_eq!(pool.to_string(), "cannot start 4 threads: no memory");
    assert_eq!(pool.source().unwrap().to_string(), "no memory");
    let pipe = Error::io("<stdout>", std::io::ErrorKind::BrokenPipe.into());
    assert!(pipe.is_broken_pipe());
    assert!(!io.is_broken_pipe());
}
