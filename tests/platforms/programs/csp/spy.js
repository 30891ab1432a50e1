// A classic script, so it runs before any module: records every CSP violation on the page.
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample });
});
