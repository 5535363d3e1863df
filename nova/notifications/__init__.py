"""Host status events: the watcher that notices and stores them, and their
versioned notifications (Nova's envelope) over oslo.messaging."""
