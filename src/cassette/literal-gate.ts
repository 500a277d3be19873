/**
 * Which of several expressions could match a text, from the literals each match must contain
 * (`undefined`: unknown, so the expression may always match), searching as few literals as it
 * can. A literal that contains another is absent wherever the shorter one is: `sk-` absent
 * rules out `sk-ant-` and every `sk-proj-…` credential without searching for them. So only the
 * literals that contain no other one are searched in every text, and a longer literal only where
 * all those it contains are present. The answer is exact: `literals.some((l) => text.includes(l))`
 * for each expression.
 */
export function literalGate(
  literalSets: readonly (readonly string[] | undefined)[],
): (text: string) => boolean[] {
  const distinct = [...new Set(literalSets.flatMap((literals) => literals ?? []))];
  // The literals no other distinct literal is part of: every literal contains at least one (itself, or a shorter one).
  const probes = distinct.filter(
    (literal) => !distinct.some((other) => other !== literal && literal.includes(other)),
  );
  const plans = literalSets.map((literals) =>
    literals?.map((literal) => ({
      literal,
      probe: probes.includes(literal),
      within: probes.flatMap((probe, index) => (literal.includes(probe) ? [index] : [])),
    })),
  );
  return (text) => {
    const present = probes.map((probe) => text.includes(probe));
    return plans.map(
      (plan) =>
        plan === undefined ||
        plan.some(
          ({ literal, probe, within }) =>
            within.every((index) => present[index] === true) && (probe || text.includes(literal)),
        ),
    );
  };
}
