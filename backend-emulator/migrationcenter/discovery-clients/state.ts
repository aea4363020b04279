/**
 * The state of a discovery client, derived when it is read from what its heartbeats and its
 * expiration say (Google's enum; Google does not publish its rule, this one is the emulator's):
 *
 *   EXPIRED   its expireTime has passed (whatever its heartbeats);
 *   OFFLINE   no heartbeat yet, or none for HEARTBEAT_TIMEOUT_MS;
 *   DEGRADED  the last heartbeat, within the timeout, reported errors;
 *   ACTIVE    the last heartbeat, within the timeout, reported none.
 */
export const DISCOVERY_CLIENT_STATES = ['STATE_UNSPECIFIED', 'ACTIVE', 'OFFLINE', 'DEGRADED', 'EXPIRED'] as const;
export type DiscoveryClientState = (typeof DISCOVERY_CLIENT_STATES)[number];

/** Google asks for a heartbeat "every few minutes": three quarters of an hour of silence is offline. */
export const HEARTBEAT_TIMEOUT_MS = 45 * 60 * 1000;

export interface HeartbeatFacts {
  expireTime?: string;
  heartbeatTime?: string;
  errors?: unknown[];
}

export function discoveryClientState(client: HeartbeatFacts, nowMs: number): DiscoveryClientState {
  if (client.expireTime !== undefined && Date.parse(client.expireTime) <= nowMs) return 'EXPIRED';
  if (client.heartbeatTime === undefined || nowMs - Date.parse(client.heartbeatTime) > HEARTBEAT_TIMEOUT_MS) return 'OFFLINE';
  return client.errors && client.errors.length > 0 ? 'DEGRADED' : 'ACTIVE';
}
