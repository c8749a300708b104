/** The tag every note starts with. */
export const tagged = 'new';
