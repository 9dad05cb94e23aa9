-- Web Push (docs/push.md): a subscription's `expirationTime` as the browser gave it (PushSubscriptionJSON), in
-- milliseconds since the epoch, or null when its push service set no end. Nothing is sent past it: the sender
-- deletes such a subscription as it does one whose push service answered 410. Whole milliseconds, as the Push API
-- gives them, so that no conversion can move the moment.
ALTER TABLE subscriptions ADD COLUMN expiration_time INTEGER;
