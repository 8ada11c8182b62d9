// The page's words for every refusal the service can send, by problem `code` and `params`.
// STUB: the catalogue is being written; until then the service's own detail is shown.

/** Plain words for `problem` (a problem document), naming seats by `names`. */
export function explain(problem, { names = [], game = null } = {}) {
  void names;
  void game;
  return problem.detail || problem.title || 'Something went wrong.';
}

/** Where a problem belongs: `{seat, field}` (either null when it is about the whole table). */
export function placeOf(problem) {
  const params = problem.params || {};
  return { seat: Number.isInteger(params.seat) ? params.seat : null, field: null };
}
