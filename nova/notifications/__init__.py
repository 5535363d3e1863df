"""Versioned notifications (Nova's envelope) over oslo.messaging."""
