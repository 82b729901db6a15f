//! Where each instance of a test runs in one launch: a randomised
//! assignment of test threads to GPU threads that keeps the test's
//! placement (same warp, same CTA, same cluster, different clusters), and
//! randomised location addresses. Threads left over stress memory.

use super::plan::{Home, Plan, BLOCK, SHARED_WORDS};

pub use ptx_litmus::gen::Rng;

/// One launch's assignment.
pub struct Layout {
    /// Per GPU thread: `instance << 4 | test thread`, or `u32::MAX`.
    pub roles: Vec<u32>,
    /// Per instance and location: a word index in the global location
    /// region, or `rank << 24 | word` in a CTA's shared memory.
    pub locs: Vec<u32>,
    pub instances: usize,
}

/// Words of the global location region for `max_instances` instances:
/// four slots per location, so that addresses spread out.
pub fn region_words(plan: &Plan, max_instances: usize) -> usize {
    max_instances * plan.locs.len().max(1) * 4 * plan.slot_words as usize
}

/// The most instances one launch of `ctas` CTAs can hold.
pub fn max_instances(plan: &Plan, ctas: u32) -> usize {
    (ctas as usize * BLOCK as usize) / plan.threads.max(1)
}

/// Assigns instances until `fraction` of the GPU threads run test threads
/// or no more fit.
pub fn assign(plan: &Plan, ctas: u32, fraction: f64, rng: &mut Rng) -> Layout {
    let c = plan.cluster.max(1) as usize;
    let ctas = ctas as usize;
    let phys_clusters = ctas / c;
    let warps = (BLOCK / 32) as usize;
    let mut roles = vec![u32::MAX; ctas * BLOCK as usize];
    // free lanes per CTA and warp
    let mut free = vec![vec![u32::MAX; warps]; ctas];
    let slot = plan.slot_words as usize;
    let shared_slots = SHARED_WORDS as usize / slot;
    let mut shared_used = vec![vec![false; shared_slots]; ctas];
    let max = max_instances(plan, ctas as u32);
    let region = region_words(plan, max) / slot;
    let mut global_used = vec![false; region];
    let budget = ((ctas * BLOCK as usize) as f64 * fraction.clamp(0.0, 1.0)) as usize;
    let nclusters = plan.place.iter().map(|p| p.0).max().unwrap_or(0) + 1;
    let mut locs = Vec::new();
    let (mut used, mut instances, mut failures) = (0usize, 0usize, 0);
    while used + plan.threads <= budget && failures < 64 && instances < max {
        // distinct physical clusters for the test's clusters
        let mut chosen: Vec<usize> = Vec::with_capacity(nclusters);
        while chosen.len() < nclusters.min(phys_clusters) {
            let k = rng.below(phys_clusters);
            if !chosen.contains(&k) {
                chosen.push(k);
            }
        }
        if chosen.len() < nclusters {
            break;
        }
        // a random order of the CTAs in each cluster
        let ranks: Vec<Vec<usize>> = (0..nclusters)
            .map(|_| {
                let mut r: Vec<usize> = (0..c).collect();
                for i in (1..r.len()).rev() {
                    r.swap(i, rng.below(i + 1));
                }
                r
            })
            .collect();
        let phys = |cl: usize, k: usize| chosen[cl] * c + ranks[cl][k];
        // lanes, CTA by CTA
        let mut picks: Vec<(usize, usize, usize)> = Vec::new(); // (cta, warp, lane) per thread
        let trial = &mut free;
        let mut ok = true;
        for t in 0..plan.threads {
            let (cl, k) = plan.place[t];
            let cta = phys(cl, k);
            let mates: Vec<usize> = picks
                .iter()
                .zip(0..)
                .filter(|(p, u)| p.0 == cta && plan.place[*u] == (cl, k))
                .map(|(p, _)| p.1)
                .collect();
            let start = rng.below(warps);
            let warp = (0..warps).map(|i| (start + i) % warps).find(|&wi| {
                trial[cta][wi] != 0
                    && if plan.same_warp {
                        mates.is_empty() || mates.contains(&wi)
                    } else {
                        !mates.contains(&wi) || mates.len() >= warps
                    }
            });
            let Some(wi) = warp else {
                ok = false;
                break;
            };
            let lanes = trial[cta][wi];
            let n = lanes.count_ones() as usize;
            let mut pick = rng.below(n);
            let mut lane = 0;
            for b in 0..32 {
                if lanes & (1 << b) != 0 {
                    if pick == 0 {
                        lane = b;
                        break;
                    }
                    pick -= 1;
                }
            }
            trial[cta][wi] &= !(1u32 << lane);
            picks.push((cta, wi, lane));
        }
        // gives the lanes taken back when the instance does not fit
        let undo = |free: &mut Vec<Vec<u32>>, picks: &[(usize, usize, usize)]| {
            for &(cta, wi, lane) in picks {
                free[cta][wi] |= 1 << lane;
            }
        };
        if !ok {
            undo(&mut free, &picks);
            failures += 1;
            continue;
        }
        // locations
        let mut row = Vec::with_capacity(plan.locs.len());
        for loc in &plan.locs {
            let word = match loc.home {
                Home::Global => {
                    let mut w = rng.below(region);
                    while global_used[w] {
                        w = (w + 1) % region;
                    }
                    global_used[w] = true;
                    (w * slot) as u32
                }
                Home::Shared { cluster, cta, .. } => {
                    let pc = phys(cluster, cta);
                    let used_words = &mut shared_used[pc];
                    let mut w = rng.below(shared_slots);
                    let mut tries = 0;
                    while used_words[w] && tries < shared_slots {
                        w = (w + 1) % shared_slots;
                        tries += 1;
                    }
                    if used_words[w] {
                        ok = false;
                        0
                    } else {
                        used_words[w] = true;
                        (((pc % c) as u32) << 24) | (w * slot) as u32
                    }
                }
            };
            row.push(word);
        }
        if !ok {
            undo(&mut free, &picks);
            failures += 1;
            continue;
        }
        for (t, &(cta, wi, lane)) in picks.iter().enumerate() {
            roles[cta * BLOCK as usize + wi * 32 + lane] = ((instances as u32) << 4) | t as u32;
        }
        locs.extend(row);
        used += plan.threads;
        instances += 1;
        failures = 0;
    }
    Layout {
        roles,
        locs,
        instances,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ptx_litmus::gen::{build, Locations, Placement, Strength, FAMILIES};
    use ptx_litmus::Scope;
    use std::collections::{HashMap, HashSet};

    fn plan_of(family: &str, placement: Placement, locations: Locations) -> Plan {
        let (f, c) = FAMILIES.iter().find(|f| f.0 == family).unwrap();
        let g = build(
            f,
            c,
            Strength::Relaxed,
            Some(Scope::Gpu),
            placement,
            locations,
            0,
        )
        .unwrap();
        super::super::plan::plan(&g.test, &[], "8.0", false).unwrap()
    }

    /// (cta, warp, lane) of every test thread, per instance.
    fn where_(plan: &Plan, l: &Layout) -> Vec<Vec<(usize, usize, usize)>> {
        let mut at: HashMap<(usize, usize), (usize, usize, usize)> = HashMap::new();
        for (g, &r) in l.roles.iter().enumerate() {
            if r != u32::MAX {
                let key = ((r >> 4) as usize, (r & 15) as usize);
                let b = BLOCK as usize;
                assert!(
                    at.insert(key, (g / b, g % b / 32, g % 32)).is_none(),
                    "{key:?} twice"
                );
            }
        }
        (0..l.instances)
            .map(|i| (0..plan.threads).map(|t| at[&(i, t)]).collect())
            .collect()
    }

    #[test]
    fn every_placement_is_kept() {
        for placement in Placement::ALL {
            for family in ["MP", "IRIW"] {
                let plan = plan_of(family, placement, Locations::Global);
                let ctas = 24;
                let l = assign(&plan, ctas, 1.0, &mut Rng(3));
                assert!(
                    l.instances * plan.threads > (ctas as usize * 256) * 9 / 10,
                    "{placement:?} {family}: {}",
                    l.instances
                );
                let c = plan.cluster as usize;
                for inst in where_(&plan, &l) {
                    let ctas: HashSet<usize> = inst.iter().map(|p| p.0).collect();
                    let clusters: HashSet<usize> = inst.iter().map(|p| p.0 / c).collect();
                    let warps: HashSet<(usize, usize)> = inst.iter().map(|p| (p.0, p.1)).collect();
                    match placement {
                        Placement::SameWarp => assert_eq!(warps.len(), 1),
                        Placement::SameCta => {
                            assert_eq!(ctas.len(), 1);
                            assert_eq!(warps.len(), inst.len());
                        }
                        Placement::SameCluster => {
                            assert_eq!(clusters.len(), 1);
                            assert_eq!(ctas.len(), inst.len());
                        }
                        Placement::DiffClusters => assert_eq!(clusters.len(), inst.len()),
                    }
                }
            }
        }
    }

    #[test]
    fn locations_never_share_a_word() {
        for (placement, locations) in [
            (Placement::DiffClusters, Locations::Global),
            (Placement::SameCta, Locations::SharedCta),
            (Placement::SameCluster, Locations::Dsmem),
        ] {
            let plan = plan_of("MP", placement, locations);
            let l = assign(&plan, 16, 1.0, &mut Rng(9));
            let pos = where_(&plan, &l);
            let mut seen = HashSet::new();
            for (i, row) in l.locs.chunks(plan.locs.len()).enumerate() {
                for (k, &w) in row.iter().enumerate() {
                    let key = match plan.locs[k].home {
                        Home::Global => (usize::MAX, w as usize),
                        Home::Shared { .. } => {
                            // the owner's CTA: the instance's cluster, the rank in it
                            let c = plan.cluster as usize;
                            let base = pos[i][0].0 / c * c;
                            (base + (w >> 24) as usize, (w & 0xff_ffff) as usize)
                        }
                    };
                    assert!(seen.insert(key), "{placement:?}: {key:?} twice");
                }
            }
        }
    }

    #[test]
    fn a_smaller_fraction_leaves_stress_threads() {
        let plan = plan_of("SB", Placement::DiffClusters, Locations::Global);
        let l = assign(&plan, 8, 0.25, &mut Rng(1));
        let testing = l.roles.iter().filter(|&&r| r != u32::MAX).count();
        assert!(
            (8 * 256 / 4 - 2..=8 * 256 / 4).contains(&testing),
            "{testing}"
        );
    }
}
