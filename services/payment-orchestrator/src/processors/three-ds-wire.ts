import type { ActionRequiredOutcome, AuthenticationStatus, RedirectAction } from '../domain/payment-vocabulary/authentication';

/**
 * EMV 3-D Secure transStatus (and Checkout.com's authentication_response, the same letters) → status:
 * Y authenticated, A attempted (the issuer or scheme stood in), anything else (N not authenticated,
 * R rejected, U unavailable, C/D challenge not finished) failed.
 */
export function threeDsAuthenticationStatus(transStatus: string): AuthenticationStatus {
  if (transStatus === 'Y') return 'authenticated';
  if (transStatus === 'A') return 'attempted';
  return 'failed';
}

/**
 * The redirect an action_required answer asks for, kept in its `resume` state: when the consumer comes
 * back without what settles the payment (a reload of the return address, the processor not yet done),
 * the engine can send them to the same page again.
 */
function redirectResume(action: RedirectAction): Record<string, string> {
  return {
    redirect_url: action.url,
    redirect_method: action.method,
    ...(Object.keys(action.data).length > 0 ? { redirect_data: JSON.stringify(action.data) } : {}),
  };
}

/** The redirect kept by `redirectResume`; null when the state holds none. */
export function redirectOfResume(resume: Record<string, string>): RedirectAction | null {
  const url = resume.redirect_url;
  if (!url) return null;
  const data = resume.redirect_data ? (JSON.parse(resume.redirect_data) as Record<string, string>) : {};
  return { type: 'redirect', url, method: resume.redirect_method === 'POST' ? 'POST' : 'GET', data };
}

/** "The consumer must (still) authenticate": the redirect, the processor's reference, the state to resume and the return parameters read. */
export function actionRequired(
  action: RedirectAction,
  processorReference: string | null,
  resume: Record<string, string>,
  returnParameters: string[],
): ActionRequiredOutcome {
  return {
    status: 'action_required',
    action,
    processor_reference: processorReference,
    resume: { ...resume, ...redirectResume(action) },
    return_parameters: returnParameters,
  };
}
