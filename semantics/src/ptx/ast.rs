//! The PTX syntax tree. Spans locate every node in its source but never take
//! part in equality, so `parse(print(parse(x))) == parse(x)` compares trees.

use super::Span;

/// A whole PTX module, its top-level items in source order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Module {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `.version 8.7`
    Version { major: u32, minor: u32, span: Span },
    /// `.target sm_90a, texmode_independent`
    Target { names: Vec<String>, span: Span },
    /// `.address_size 64`
    AddressSize { bits: u32, span: Span },
    /// A module-scope variable.
    Var(VarDecl),
    /// `.entry` or `.func`, with or without a body.
    Function(Box<Function>),
    /// Any other directive kept as its tokens: `.file`, `.section`,
    /// `.pragma`, `.loc`, `.alias`...
    Other(OtherDirective),
}

/// A directive the model does not interpret, kept so printing loses nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct OtherDirective {
    /// `.file`, `.pragma`...
    pub name: String,
    /// The tokens that follow, as written.
    pub tokens: Vec<String>,
    /// Whether it ended in a brace block (`.section .debug_str { ... }`)
    /// rather than `;` or the end of the line.
    pub terminator: Terminator,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminator {
    Semicolon,
    Block,
    /// `.loc` and `.file` lines have no terminator.
    Line,
}

/// A variable, parameter or register declaration:
/// `.visible .global .align 4 .b8 x[16] = {1, 2};`, `.reg .b32 %r<10>;`.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    /// `.visible`, `.extern`, `.weak`, `.common`.
    pub linkage: Vec<String>,
    /// `.reg`, `.global`, `.shared`, `.const`, `.local`, `.param`, `.tex`...
    pub space: String,
    /// Other attributes as written, in order: `.ptr`, `.global` (pointer
    /// space of a parameter), `.attribute(.managed)`.
    pub attrs: Vec<String>,
    pub align: Option<u64>,
    /// `.v2`, `.v4`, `.v8`.
    pub vector: Option<u32>,
    /// `.b32`, `.pred`, `.texref`...
    pub ty: String,
    pub names: Vec<Declarator>,
    pub span: Span,
}

/// One declared name: `x`, `%r<10>`, `a[4][2]`, `b[] = {1, 2}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: String,
    /// `%r<10>` declares `%r0` .. `%r9`.
    pub range: Option<u32>,
    /// Array dimensions; `None` for `[]`.
    pub dims: Vec<Option<u64>>,
    pub init: Option<Init>,
    pub span: Span,
}

impl Declarator {
    /// Every register or variable name this declarator introduces.
    pub fn expanded_names(&self) -> impl Iterator<Item = String> + '_ {
        let count = self.range.unwrap_or(0);
        let single = self.range.is_none();
        (0..count)
            .map(move |i| format!("{}{i}", self.name))
            .chain(single.then(|| self.name.clone()))
    }
}

/// An initializer: a constant expression or a brace list.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Expr(Expr),
    List(Vec<Init>),
}

/// A constant expression (PTX ISA 4.6.2).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i128),
    /// `0fXXXXXXXX`: an f32 bit pattern.
    F32(u32),
    /// `0dXXXXXXXXXXXXXXXX` or a decimal float: an f64 bit pattern.
    F64(u64),
    /// A variable or function name.
    Sym(String),
    /// `generic(var)`
    Generic(String),
    Unary(char, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

impl BinOp {
    pub fn text(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
        }
    }
}

/// `.entry` or `.func`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    Entry,
    Func,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    /// `.visible`, `.extern`, `.weak`.
    pub linkage: Vec<String>,
    pub kind: FunctionKind,
    /// Return parameters of a `.func`: `(.param .b32 retval)`; `None` when
    /// there is no return list.
    pub returns: Option<Vec<VarDecl>>,
    pub name: String,
    /// `None` when there is no parameter list at all.
    pub params: Option<Vec<VarDecl>>,
    /// Performance directives and attributes between the parameters and the
    /// body: `.maxntid 256, 1, 1`, `.noreturn`, `.pragma "nounroll"`.
    pub directives: Vec<FunctionDirective>,
    /// `None` for a declaration.
    pub body: Option<Vec<Stmt>>,
    /// Whether a declaration ends with `;`. A PTX 2.x declaration may end
    /// without one, where the next directive begins (ptxas accepts
    /// `.func (.param .s32 r) f (.param .s32 a)` followed by `.entry ...`).
    /// Always `false` for a definition.
    pub semicolon: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDirective {
    pub name: String,
    pub values: Vec<String>,
    pub span: Span,
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Label(String, Span),
    Instr(Instruction),
    Var(VarDecl),
    /// `{ ... }`: a nested scope.
    Block(Vec<Stmt>, Span),
    /// `.pragma`, `.loc`, and other directives inside a body.
    Other(OtherDirective),
}

/// `@!%p1 cvt.rn.f16.f32 %rs1, %f1;`
#[derive(Clone, Debug, PartialEq)]
pub struct Instruction {
    pub guard: Option<Guard>,
    /// `cvt`, `cp`, `ld`.
    pub opcode: String,
    /// `.rn`, `.f16`, `.f32`, in written order, dots included.
    pub quals: Vec<String>,
    pub operands: Vec<Operand>,
    pub span: Span,
    /// The span of the opcode and its qualifiers.
    pub opcode_span: Span,
}

impl Instruction {
    /// `cvt.rn.f16.f32`
    pub fn full_opcode(&self) -> String {
        let mut s = self.opcode.clone();
        for q in &self.quals {
            s.push_str(q);
        }
        s
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Guard {
    pub negated: bool,
    pub pred: String,
    pub span: Span,
}

/// An instruction operand.
#[derive(Clone, Debug, PartialEq)]
pub struct Operand {
    pub kind: OperandKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OperandKind {
    /// A register, special register (`%tid.x`), variable, function or label
    /// name; the sink `_`; a vector register whole (`v`) or one element of
    /// it (`v.x`, `v.r`: PTX ISA 6.4.3 "Vectors as Operands").
    Name(String),
    /// `name+imm` outside brackets: a variable's address with an offset
    /// (`mov.u64 %rd1, x+8`), or a register's value plus a constant
    /// (`st.u64 [p], %rd1+1`). `name-imm` is kept as a negative offset.
    NameOffset(String, i128),
    /// `!p`
    Not(String),
    /// A constant expression, folded where it has no symbols.
    Imm(Expr),
    /// `[a]`, `[a+imm]`, `[var]`, `[imm]`, `[tmap, {x, y}]`.
    Addr(Address),
    /// `{a, b, c, d}`
    Vector(Vec<Operand>),
    /// `d|p`
    Pair(Box<Operand>, Box<Operand>),
    /// `(a, b)`: call argument lists.
    Paren(Vec<Operand>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Address {
    /// A register or variable name, or `None` for an absolute `[imm]`.
    pub base: Option<String>,
    pub offset: i128,
    /// The coordinates of a tensor address `[tmap, {x, y}]`.
    pub coords: Option<Vec<Operand>>,
}
