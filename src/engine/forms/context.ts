// What a form's rules depend on beyond its data: the exhibitor's flags (sections shown, second
// language) and quotas. The browser and the server build it from the same account info.

export interface FormContext {
  /** Participation flags of spec §3 (s01CompanyShow, profileSecondLanguage, …). */
  flags: Record<string, boolean>;
  /** Quotas by kind, e.g. { badges: 5, contractorBadges: 10 }. */
  quotas: Record<string, number>;
}
