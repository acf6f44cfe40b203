//! Element types as the engine sees them: class, kind and bytes per element.

/// Intrinsic type class of an element (gfortran's BT_* codes in `dtype.type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// INTEGER (code 1).
    Integer,
    /// LOGICAL (code 2).
    Logical,
    /// REAL (code 3).
    Real,
    /// COMPLEX (code 4).
    Complex,
    /// CHARACTER (code 6).
    Character,
    /// A derived type or anything else moved as raw bytes (codes 5, 7, ...).
    Bytes,
}

impl Class {
    /// The class of a gfortran `dtype.type` code.
    pub fn from_code(code: i8) -> Class {
        match code {
            1 => Class::Integer,
            2 => Class::Logical,
            3 => Class::Real,
            4 => Class::Complex,
            6 => Class::Character,
            _ => Class::Bytes,
        }
    }
}

/// An element type: class, kind and size in bytes. For CHARACTER, `kind` is the character kind
/// (1 or 4) and `size` is `len * kind`; for REAL(10) the size is 16 (the x87 format padded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ty {
    /// Type class.
    pub class: Class,
    /// Kind type parameter.
    pub kind: u8,
    /// Bytes per element.
    pub size: usize,
}

impl Ty {
    /// A type built from its parts.
    pub fn new(class: Class, kind: u8, size: usize) -> Ty {
        Ty { class, kind, size }
    }

    /// Whether elements of `self` and `other` can be copied as raw bytes.
    pub fn same_repr(&self, other: &Ty) -> bool {
        self.size == other.size
            && (self.class == other.class && self.kind == other.kind
                || self.class == Class::Bytes
                || other.class == Class::Bytes)
    }

    /// Characters per element of a CHARACTER type.
    pub fn len(&self) -> usize {
        self.size / self.kind.max(1) as usize
    }

    /// Whether the type has zero-size elements.
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }
}
