//! State spaces as the simulator names them (PTX ISA 5.1), read from the
//! qualifiers the catalogue bound.

/// A state space an address may belong to. `Generic` is no space: the
/// address is a generic one, resolved through the windows of
/// [`crate::sim::window`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Generic,
    Global,
    Const,
    Local,
    /// `.shared::cta` (and `.shared` with no sub-qualifier).
    SharedCta,
    SharedCluster,
    /// `.param::entry`: kernel parameters.
    ParamEntry,
    /// `.param::func`: device-function parameters.
    ParamFunc,
}

impl Space {
    /// From a state-space qualifier (`.shared::cluster`), dot included.
    /// `.param` means `::entry` for `isspacep` and `cvta` and, in a kernel,
    /// for `ld` of the kernel's own parameters; callers that need
    /// `.param::func` say so themselves.
    pub fn from_qualifier(q: &str) -> Option<Space> {
        Some(match q {
            ".global" => Space::Global,
            ".const" | "const" => Space::Const,
            ".local" => Space::Local,
            ".shared" | ".shared::cta" => Space::SharedCta,
            ".shared::cluster" => Space::SharedCluster,
            ".param" | ".param::entry" => Space::ParamEntry,
            ".param::func" => Space::ParamFunc,
            _ => return None,
        })
    }

    /// A variable's declared space (`.shared` declares `.shared::cta`).
    pub fn of_declaration(space: &str) -> Option<Space> {
        Space::from_qualifier(space)
    }

    pub fn name(self) -> &'static str {
        match self {
            Space::Generic => "generic",
            Space::Global => ".global",
            Space::Const => ".const",
            Space::Local => ".local",
            Space::SharedCta => ".shared::cta",
            Space::SharedCluster => ".shared::cluster",
            Space::ParamEntry => ".param::entry",
            Space::ParamFunc => ".param::func",
        }
    }
}
