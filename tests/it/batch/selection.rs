//! Which scenarios a batch runs: discovery in a folder and shards (`batch`).

use pikeshot::batch::*;

#[test]
fn shards_parse_and_deal_round_robin() {
    let s = Shard::parse("2/3").unwrap();
    assert_eq!(s, Shard { index: 2, count: 3 });
    let taken: Vec<usize> = (0..8).filter(|&k| s.takes(k)).collect();
    assert_eq!(taken, vec![1, 4, 7]);
    for bad in ["0/3", "4/3", "1/0", "x/2", "2", "1/-1"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
    // Every scenario goes to exactly one shard.
    for k in 0..20 {
        let n = (1..=4)
            .filter(|&i| Shard { index: i, count: 4 }.takes(k))
            .count();
        assert_eq!(n, 1);
    }
}

#[test]
fn discovery_is_recursive_sorted_and_skips_hidden() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for p in [
        "b.toml",
        "a/z.toml",
        "a/b/c.toml",
        ".hidden/x.toml",
        "a/.y.toml",
        "n.txt",
    ] {
        let path = d.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "").unwrap();
    }
    assert_eq!(
        discover(d).unwrap(),
        vec!["a/b/c.toml", "a/z.toml", "b.toml"]
    );
    assert_eq!(folder_of("a/b/c.toml"), "a/b/c");
    assert!(discover(&d.join("b.toml")).is_err());
}
