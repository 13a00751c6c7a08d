//! Admission of WebSocket connections: a global cap (HTTP 503 beyond, well below the file
//! limit so that `/health` and running games keep answering) and a cap per IP address
//! (HTTP 429 beyond), so that one client cannot take every socket.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Open WebSocket connections, in all and per address.
#[derive(Debug, Default)]
pub struct Slots {
    open: AtomicUsize,
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

/// Why a connection was not admitted.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The hall holds its most connections.
    Full,
    /// This address holds its most connections.
    AddressFull,
}

/// One admitted connection; its place is given back when this is dropped.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    address: Option<IpAddr>,
    /// Whether the connection counts against its address's cap.
    counted: bool,
}

impl Slots {
    /// Admits a connection from `address` (unknown: only the global cap applies) when fewer
    /// than `max` are open in all and fewer than `per_address` from it (0: no such cap).
    pub fn admit(
        self: &Arc<Self>,
        address: Option<IpAddr>,
        max: usize,
        per_address: usize,
    ) -> Result<Slot, Refused> {
        if self.open.fetch_add(1, Ordering::AcqRel) >= max {
            self.open.fetch_sub(1, Ordering::AcqRel);
            return Err(Refused::Full);
        }
        let counted = address.filter(|_| per_address > 0);
        if let Some(ip) = counted {
            let mut by_address = self.by_address.lock().expect("addresses lock");
            let count = by_address.entry(ip).or_default();
            if *count >= per_address {
                drop(by_address);
                self.open.fetch_sub(1, Ordering::AcqRel);
                return Err(Refused::AddressFull);
            }
            *count += 1;
        }
        Ok(Slot {
            slots: self.clone(),
            address,
            counted: counted.is_some(),
        })
    }

    /// Open connections.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }
}

impl Slot {
    /// The peer's IP address, when known.
    pub fn address(&self) -> Option<IpAddr> {
        self.address
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(ip) = self.address.filter(|_| self.counted) {
            let mut by_address = self.slots.by_address.lock().expect("addresses lock");
            if let Some(count) = by_address.get_mut(&ip) {
                *count -= 1;
                if *count == 0 {
                    by_address.remove(&ip);
                }
            }
        }
        self.slots.open.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_hold_and_places_come_back() {
        let slots = Arc::new(Slots::default());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let first = slots.admit(Some(a), 3, 2).unwrap();
        let _second = slots.admit(Some(a), 3, 2).unwrap();
        assert_eq!(
            slots.admit(Some(a), 3, 2).unwrap_err(),
            Refused::AddressFull
        );
        let _third = slots.admit(Some(b), 3, 2).unwrap();
        assert_eq!(slots.admit(Some(b), 3, 2).unwrap_err(), Refused::Full);
        drop(first);
        let again = slots.admit(Some(a), 3, 2);
        assert!(again.is_ok());
        assert_eq!(slots.open(), 3);
        drop(again);
        assert_eq!(slots.open(), 2);
    }
}
