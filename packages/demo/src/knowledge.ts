/**
 * The simulated judge's small store of general knowledge: a real judge rejects a right answer that
 * also asserts something false; this one can do so for the few well-known numeric facts listed here.
 */
interface KnownNumber {
  /** The subject the claim is about. */
  subject: RegExp;
  /** The attribute, followed closely by the claimed number. */
  attribute: RegExp;
  value: number;
  label: string;
}

const KNOWN: readonly KnownNumber[] = [
  { subject: /\b(gold|Au)\b/i, attribute: /atomic number\D{0,12}(\d+)/i, value: 79, label: "gold's atomic number is 79" },
  { subject: /\b(silver|Ag)\b/i, attribute: /atomic number\D{0,12}(\d+)/i, value: 47, label: "silver's atomic number is 47" },
  { subject: /\bwater\b/i, attribute: /boils?\D{0,30}(\d+)\s*(?:°\s*C|degrees? celsius)/i, value: 100, label: 'water boils at 100 °C at sea level' },
  { subject: /\bhexagons?\b/i, attribute: /(\d+)\s+sides/i, value: 6, label: 'a hexagon has 6 sides' },
];

/** The known fact `answer` contradicts (null when none): a listed subject with a different number for its attribute. */
export function contradictsKnownFact(answer: string): string | null {
  for (const fact of KNOWN) {
    if (!fact.subject.test(answer)) continue;
    const claimed = fact.attribute.exec(answer)?.[1];
    if (claimed !== undefined && Number(claimed) !== fact.value) return fact.label;
  }
  return null;
}
