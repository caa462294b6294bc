/**
 * The simulated issuer's 3-D Secure page. A person approves or rejects; the page records the decision and
 * posts `{ type: 'kassa:3ds', reference, outcome, authenticationResult }` to the window that opened it (or
 * its parent frame), on the engine's own origin only.
 */
export function challengePage(reference: string, amountText: string, nonce: string): string {
  const ref = JSON.stringify(reference);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Confirm your payment</title>
<style nonce="${nonce}">
  body { font: 18px/1.4 system-ui, sans-serif; margin: 0; display: grid; place-items: center; min-height: 100vh; background: #f4f5f7; color: #111; }
  main { background: #fff; padding: 2rem; border-radius: 12px; max-width: 26rem; box-shadow: 0 2px 12px #0002; text-align: center; }
  button { font: inherit; padding: .9rem 1.6rem; margin: .5rem; border-radius: 8px; border: 2px solid #123; min-width: 9rem; cursor: pointer; }
  #approve { background: #0a5d2b; color: #fff; border-color: #0a5d2b; }
  #reject { background: #fff; color: #8a1010; border-color: #8a1010; }
</style>
</head>
<body>
<main>
  <h1>Confirm your payment</h1>
  <p>Simulated card issuer. Approve the payment of <strong>${amountText}</strong>?</p>
  <div><button id="approve" type="button">Approve</button><button id="reject" type="button">Reject</button></div>
  <p id="status" role="status" aria-live="polite"></p>
</main>
<script nonce="${nonce}">
  const reference = ${ref};
  async function decide(outcome) {
    for (const b of document.querySelectorAll('button')) b.disabled = true;
    const response = await fetch(location.pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome }) });
    const result = await response.json();
    const message = { type: 'kassa:3ds', reference, outcome, authenticationResult: result.authenticationResult };
    const target = window.opener || (window.parent !== window ? window.parent : null);
    if (target) target.postMessage(message, location.origin);
    document.getElementById('status').textContent = outcome === 'approve' ? 'Payment approved. You can close this window.' : 'Payment rejected. You can close this window.';
  }
  document.getElementById('approve').addEventListener('click', () => decide('approve'));
  document.getElementById('reject').addEventListener('click', () => decide('reject'));
</script>
</body>
</html>`;
}
