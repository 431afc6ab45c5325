//! Alias tables: they reproduce their input and sampling follows them within 4.5 standard errors (`engine::alias`).

use pikeshot::dice::Sampler;
use pikeshot::engine::alias::*;

#[test]
fn table_reproduces_its_input() {
    let probs = [0.0, 0.5, 0.125, 0.0, 0.25, 0.125];
    let t = AliasTable::new(&probs).unwrap();
    assert_eq!(t.len(), 64);
    assert_eq!(t.bits_per_trial(), 32);
    for (a, b) in t.probabilities(probs.len()).iter().zip(probs) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }
    let third = [1.0 / 3.0; 3];
    let t = AliasTable::new(&third).unwrap();
    assert_eq!(t.len(), 64, "padded to the fixed-size table");
    let many: Vec<f64> = (0..100).map(|i| 1.0 + i as f64).collect();
    assert_eq!(AliasTable::new(&many).unwrap().len(), 128, "a power of two");
    for p in t.probabilities(3) {
        assert!((p - 1.0 / 3.0).abs() < 1e-9);
    }
    let one = AliasTable::new(&[0.0, 1.0]).unwrap();
    assert_eq!(one.probabilities(2), vec![0.0, 1.0]);
    assert!(AliasTable::new(&[0.0, 0.0]).is_none());
}

#[test]
fn sampling_follows_the_table() {
    let probs = [0.1, 0.0, 0.6, 0.3];
    let t = AliasTable::new(&probs).unwrap();
    let n = 200_001u64;
    let mut counts = vec![0u64; 4];
    t.sample(&mut Sampler::new(11), n, &mut counts);
    assert_eq!(counts.iter().sum::<u64>(), n);
    assert_eq!(counts[1], 0);
    for (c, p) in counts.iter().zip(probs) {
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((*c as f64 / n as f64 - p).abs() <= 4.5 * se + 1e-12);
    }
}
