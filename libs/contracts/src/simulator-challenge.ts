/**
 * The simulator's issuer page (test mode only): the vault serves it beside the hosted page's return route
 * (`/checkout/{session_id}/test-challenge`), the simulator sends consumers there, and its "Complete" and
 * "Fail" buttons send them back to the return route with this parameter. Both sides read it from here.
 */
export const SIMULATOR_CHALLENGE = {
  /** Resolved against the hosted page's return address (`…/checkout/{session_id}/return`). */
  path: 'test-challenge',
  parameter: 'simulator_challenge',
  outcomes: ['completed', 'failed'],
} as const;
