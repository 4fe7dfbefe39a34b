"""Schemathesis hooks for `npm run conformance` (loaded through `hooks` in schemathesis.toml).

1. `flatmap_case`: half of the positive (schema-valid) cases that the fuzzing and stateful phases generate
   for the three creation operations get data that also passes the rules JSON Schema cannot express:
   CPF/CNPJ check digits, the key that fits its type, the account holder's document for a Mode 1
   withdrawal. A random 11-digit string is a valid CPF about once in a hundred, so without this the
   generated charges, recipients and withdrawals almost never get past validation, and their success
   responses (and the links to GET /v1/transactions/{id}) would be exercised only with the spec's examples.
   The other half is left as generated, so the refusals stay covered. The same for POST
   /v1/transactions/{id}/refunds: half of its positive cases refund one of the merchant's paid charges (the
   charges provisioned for them, PIXGATE_CONFORMANCE_PAID_CHARGES), of a small amount, so the refund's
   own logic (the returns rule, the balance, the idempotency of externalRef) is reached, not only its 404.
   Negative cases are never touched
   (changing them could make them valid). Every value is drawn through Hypothesis, so the seed still
   reproduces the run.

2. `after_load_schema`: lets the stateful phase start scenarios from POST /v1/withdraw. Schemathesis's
   dependency analysis reads the optional `recipientId` as a reference to a "Recipient" resource that no
   operation produces (the recipient schemas are titled RecipientRegistration / RecipientSummary), so it
   judges the operation "unlikely to succeed" and never uses it as an entry point: the three links
   createWithdrawal -> getTransaction were never followed. Mode 1 withdrawals need no recipient, so that
   input is dropped from the graph. (Internal API of Schemathesis; the version is pinned.)

3. One custom check, `positive_refusal_is_documented`, that keeps the positive_data_acceptance configuration
narrow. schemathesis.toml lets the three creation operations answer schema-valid data with 400/403/404/422,
because the contract refuses some such data for reasons JSON Schema cannot express (check digits, a rule that
depends on another field, the account's settings or balance). This check makes sure that every such refusal
is one of those reasons: a schema-valid request refused with any other message (for example an e-mail that
the schema's `format: email` accepts but the server rejects) means the schema and the server disagree, and
fails the run.

The messages are the contract's (../shared/spec/pix-gateway-api.md) and PixGate's catalogue
(src/messages/merchant.ts); `Recebido: …` and amounts are matched loosely.
"""

from __future__ import annotations

import copy
import datetime
import os
import re

import schemathesis
from hypothesis import strategies as st

# The provisioned merchant's holder documents (scripts/lib/conformance/provision.ts).
HOLDER_CPF = os.environ.get("PIXGATE_CONFORMANCE_HOLDER_CPF", "52998224725")
HOLDER_CNPJ = os.environ.get("PIXGATE_CONFORMANCE_HOLDER_CNPJ", "11222333000181")
# The merchant's paid charges kept for refunds (provision.ts REFUNDABLE_CHARGES; scripts/conformance.ts sets them).
PAID_CHARGES = [charge for charge in os.environ.get("PIXGATE_CONFORMANCE_PAID_CHARGES", "").split(",") if charge]

# ---------------------------------------------------------------------------------------------------------
# 1. Contract-valid documents and keys for half of the positive cases
# ---------------------------------------------------------------------------------------------------------


def _check_digit(values: list[int], weights: list[int]) -> int:
    rest = sum(v * w for v, w in zip(values, weights)) % 11
    return 0 if rest < 2 else 11 - rest


def make_cpf(base: list[int]) -> str:
    if len(set(base)) == 1:  # repeated-digit numbers are invalid even with matching check digits
        base = [*base[:-1], (base[-1] + 1) % 10]
    d1 = _check_digit(base, list(range(10, 1, -1)))
    d2 = _check_digit([*base, d1], list(range(11, 1, -1)))
    return "".join(map(str, [*base, d1, d2]))


def make_cnpj(base: str) -> str:
    """CNPJ from a 12-character base of [0-9A-Z] (alphanumeric CNPJ: value = ASCII code - 48)."""
    if len(set(base)) == 1:
        base = base[:-1] + ("1" if base[-1] != "1" else "2")
    values = [ord(ch) - 48 for ch in base]
    d1 = _check_digit(values, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    d2 = _check_digit([*values, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
    return f"{base}{d1}{d2}"


def format_document(document: str) -> str:
    if len(document) == 11:
        return f"{document[:3]}.{document[3:6]}.{document[6:9]}-{document[9:]}"
    return f"{document[:2]}.{document[2:5]}.{document[5:8]}/{document[8:12]}-{document[12:]}"


_CPFS = st.lists(st.integers(0, 9), min_size=9, max_size=9).map(make_cpf)
_NUMERIC_CNPJS = st.text("0123456789", min_size=12, max_size=12).map(make_cnpj)
_ALPHANUMERIC_CNPJS = st.text("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=12, max_size=12).map(make_cnpj)
_CNPJS = st.one_of(_NUMERIC_CNPJS, _ALPHANUMERIC_CNPJS)
_EMAIL_KEYS = st.from_regex(r"[a-z0-9]{1,20}(\.[a-z0-9]{1,10})?@[a-z0-9]{1,20}\.(com|com\.br|org)", fullmatch=True)
_PHONE_KEYS = st.from_regex(r"\+55[1-9]{2}(9[0-9]{8}|[2-9][0-9]{7})", fullmatch=True)
_EVP_KEYS = st.uuids().map(str)
_KEYS_BY_TYPE = {"email": _EMAIL_KEYS, "phone": _PHONE_KEYS, "evp": _EVP_KEYS}


def _kind(value: object) -> str | None:
    return value.strip().lower() if isinstance(value, str) else None


def _document_for(kind: str | None) -> st.SearchStrategy[str] | None:
    if kind == "cpf":
        document = _CPFS
    elif kind == "cnpj":
        document = _CNPJS
    else:
        return None
    return st.tuples(document, st.booleans()).map(lambda pair: format_document(pair[0]) if pair[1] else pair[0])


def _with_body(case, body, path_parameters=None):
    """A copy of the drawn case with this body (and these path parameters): never the drawn case itself,
    which flatmap_case's other branch still sends as generated."""
    fixed = case.derive(keep_auth=True)
    fixed.body = body
    if path_parameters is not None:
        fixed.path_parameters = path_parameters
    return fixed


def _valid_charge(case):
    body = case.body
    document = body.get("customer", {}).get("document") if isinstance(body, dict) else None
    strategy = _document_for(_kind(document.get("type"))) if isinstance(document, dict) else None
    if strategy is None:
        return None

    def apply(number: str):
        new_body = copy.deepcopy(body)
        new_body["customer"]["document"]["number"] = number
        return _with_body(case, new_body)

    return strategy.map(apply)


def _valid_recipient(case):
    body = case.body
    if not isinstance(body, dict):
        return None
    document_type = body.get("documentType")
    strategy = _document_for(_kind(document_type))
    key_kind = _kind(body.get("pixKeyType"))
    if strategy is None or key_kind is None:
        return None
    if key_kind in ("cpf", "cnpj"):
        # A CPF/CNPJ key must be the document itself, of the same type.
        def apply_document_key(document: str):
            new_body = copy.deepcopy(body)
            new_body["document"] = document
            new_body["pixKeyType"] = document_type
            new_body["pixKey"] = re.sub(r"[.\-/]", "", document)
            return _with_body(case, new_body)

        return strategy.map(apply_document_key)

    def apply_other_key(pair):
        document, key = pair
        new_body = copy.deepcopy(body)
        new_body["document"] = document
        new_body["pixKey"] = key
        return _with_body(case, new_body)

    return st.tuples(strategy, _KEYS_BY_TYPE[key_kind]).map(apply_other_key)


def _holder_withdrawal(case):
    body = case.body
    if not isinstance(body, dict):
        return None

    def apply(use_cnpj: bool):
        new_body = copy.deepcopy(body)
        new_body.pop("recipientId", None)  # Mode 1: to the account holder
        new_body["pixKeyType"] = "cnpj" if use_cnpj else "cpf"
        new_body["pixKey"] = HOLDER_CNPJ if use_cnpj else HOLDER_CPF
        return _with_body(case, new_body)

    return st.booleans().map(apply)


def _refund_of_paid_charge(case):
    """A refund of one of the merchant's paid charges (a generated id is never one), of a small amount."""
    if not PAID_CHARGES or not isinstance(case.path_parameters, dict):
        return None
    body = case.body if isinstance(case.body, dict) else None

    def apply(pair):
        charge, amount = pair
        if body is None:  # no body drawn: a refund of all that is left, as sent
            return _with_body(case, case.body, {**case.path_parameters, "id": charge})
        new_body = copy.deepcopy(body)
        new_body["amountCents"] = amount
        return _with_body(case, new_body, {**case.path_parameters, "id": charge})

    # A small part of the charge, never all of it (a refund without amountCents is the spec's example's and
    # the suites'): Hypothesis favours the first charges, which must last the whole run; refunds stop at the
    # hourly limit (429) long before they are used up.
    amounts = st.integers(1, 500)
    return st.tuples(st.sampled_from(PAID_CHARGES), amounts).map(apply)


def _valid_due_charge(case):
    """A charge with a due date that passes every rule: a due date ahead, a document with check digits, terms
    of one fitting shape each (the generated ones mostly pair a mode with the other mode's field)."""
    body = case.body
    document = body.get("customer", {}).get("document") if isinstance(body, dict) else None
    strategy = _document_for(_kind(document.get("type"))) if isinstance(document, dict) else None
    if strategy is None:
        return None

    def apply(pair):
        number, days = pair
        new_body = copy.deepcopy(body)
        new_body["customer"]["document"]["number"] = number
        new_body["dueDate"] = (datetime.date.today() + datetime.timedelta(days=days)).isoformat()
        new_body.pop("discount", None)
        new_body.pop("rebate", None)
        if "fine" in new_body:
            new_body["fine"] = {"mode": "percent", "basisPoints": 200}
        if "interest" in new_body:
            new_body["interest"] = {"mode": "percent_per_month_calendar_days", "basisPoints": 100}
        return _with_body(case, new_body)

    return st.tuples(strategy, st.integers(1, 365)).map(apply)


_MAKE_VALID = {
    "createDueCharge": _valid_due_charge,
    "createCharge": _valid_charge,
    "createRecipient": _valid_recipient,
    "createWithdrawal": _holder_withdrawal,
    "createRefund": _refund_of_paid_charge,
}


def _operation_id(case) -> str:
    return case.operation.definition.raw.get("operationId", "")


@schemathesis.hook
def flatmap_case(context, case):
    meta = case.meta
    make_valid = _MAKE_VALID.get(_operation_id(case))
    if make_valid is None or meta is None or not meta.generation.mode.is_positive:
        return st.just(case)
    valid = make_valid(case)
    if valid is None:
        return st.just(case)
    return st.booleans().flatmap(lambda fix: valid if fix else st.just(case))


# ---------------------------------------------------------------------------------------------------------
# 2. POST /v1/withdraw as an entry point of the stateful phase
# ---------------------------------------------------------------------------------------------------------


@schemathesis.hook
def after_load_schema(context, schema):
    try:
        node = schema.analysis.dependency_graph.operations.get("POST /v1/withdraw")
        if node is not None:
            node.inputs[:] = [slot for slot in node.inputs if slot.parameter_name != "recipientId"]
    except AttributeError as error:  # another Schemathesis version (e.g. the Docker image): run without it
        print(f"hooks.py: could not adjust the dependency graph ({error}); POST /v1/withdraw stays out of the stateful phase")


# ---------------------------------------------------------------------------------------------------------
# 3. positive_refusal_is_documented
# ---------------------------------------------------------------------------------------------------------

_BRL = r"R\$ [0-9.]+,[0-9]{2}"

_ACCOUNT_REFUSALS = [
    r"Conta não está aprovada para uso da API\.",
    r"Conta suspensa\. Contate o suporte\.",
    r"IP de origem não autorizado.*",
]

# A charge with a due date (POST /v1/due-charges, PATCH /v1/due-charges/{id}): what no schema can say.
_DUE_CHARGE_REFUSALS = [
    r"customer\.document\.number não é um (CPF|CNPJ) válido \(dígito verificador incorreto\)\.",
    r"customer\.document\.number deve ter (11 dígitos para cpf|14 dígitos para cnpj)\. Recebido: \d+ dígitos\.",
    r"customer\.document\.number deve conter apenas dígitos, pontos, traços e barras\.",
    r"customer\.document\.type deve ser 'cpf' ou 'cnpj'\. Recebido: '.*'\.",
    rf"Valor (abaixo do mínimo|acima do máximo)( permitido)? \({_BRL}\)\.",
    # Today and five years ahead (the schema's `format: date` cannot know today).
    r"dueDate não pode ser anterior a hoje \(\d{4}-\d{2}-\d{2}\)\.",
    r"dueDate deve ser no máximo \d{4}-\d{2}-\d{2}\.",
    # A term's fields as its mode asks (the schema lists both value fields as optional).
    r"fine deve ser .*",
    r"rebate deve ser .*",
    r"interest deve ter um mode válido, .*",
    r"discount deve ter um mode válido: .*",
    # Terms against each other and the amount.
    r"discount\.dates: a data \d{4}-\d{2}-\d{2} (é posterior ao vencimento|aparece mais de uma vez)\.",
    r"discount deve ser menor que o valor da cobrança\.",
    r"rebate deve ser menor que o valor da cobrança\.",
    rf"Com desconto e abatimento, o valor a pagar fica abaixo do mínimo permitido \({_BRL}\)\.",
]

# Refusals of schema-valid requests, per operation and status: full-match regular expressions.
DOCUMENTED_REFUSALS: dict[str, dict[int, list[str]]] = {
    "createCharge": {
        400: [
            # Check digits, and the length/characters a document type needs (one schema for cpf and cnpj).
            r"customer\.document\.number não é um (CPF|CNPJ) válido \(dígito verificador incorreto\)\.",
            r"customer\.document\.number deve ter (11 dígitos para cpf|14 dígitos para cnpj)\. Recebido: \d+ dígitos\.",
            r"customer\.document\.number deve conter apenas dígitos, pontos, traços e barras\.",
            # The account's amount range and the platform ceiling (the schema has only `minimum: 100`).
            rf"Valor (abaixo do mínimo|acima do máximo)( permitido)? \({_BRL}\)\.",
        ],
        403: [
            r"Conta não está aprovada para uso da API\.",
            r"Conta suspensa\. Contate o suporte\.",
            r"IP de origem não autorizado.*",
        ],
    },
    "createWithdrawal": {
        400: [
            r"Saque para chaves email/telefone/aleatória exige destinatário autorizado\.",
            rf"Saque acima do máximo.*",
            r"Tipo de chave \(CPF/CNPJ\) não bate com o tipo do documento do destinatário\.",
            # The key's format depends on pixKeyType (the schema's pixKey is any string of 1..150).
            r"pixKey inválida para o tipo '.*'\.",
        ],
        403: [
            r"Saque com chave CPF só permitido para o CPF do responsável cadastrado\.",
            r"Saque com chave CNPJ só permitido para o CNPJ cadastrado da empresa\.",
            r"Chave PIX \(CPF/CNPJ\) não corresponde ao documento do destinatário autorizado\.",
            r"Tipo de chave PIX '.*' não autorizado para esta conta\.",
            r"Conta não está aprovada para uso da API\.",
            r"Conta suspensa\. Contate o suporte\.",
            r"IP de origem não autorizado.*",
        ],
        404: [r"Destinatário autorizado não encontrado\."],
        422: [
            r"Saldo insuficiente para realizar o saque\.",
            r"Destinatário desativado pelo time .*\. Saque cancelado\.",
        ],
    },
    "createDueCharge": {400: _DUE_CHARGE_REFUSALS, 403: _ACCOUNT_REFUSALS},
    "updateDueCharge": {
        400: [*_DUE_CHARGE_REFUSALS, r"Nada a alterar: envie ao menos um campo\."],
        403: _ACCOUNT_REFUSALS,
        409: [r"Cobrança com status '.*' não pode ser alterada: apenas cobranças pendentes \(pending\)\."],
    },
    "cancelDueCharge": {
        403: _ACCOUNT_REFUSALS,
        409: [r"Cobrança com status '.*' não pode ser cancelada: apenas cobranças pendentes \(pending\)\."],
    },
    "createPaymentLink": {400: [rf"Valor (abaixo do mínimo|acima do máximo)( permitido)? \({_BRL}\)\."], 403: _ACCOUNT_REFUSALS},
    "listPaymentLinks": {400: [r"cursor inválido: use o nextCursor da página anterior\."]},
    # The amount due is computed from 2000 to 2099 (the holiday table's calendar); any other day of the calendar is refused.
    "getDueCharge": {400: [r"date deve estar entre 2000-01-01 e 2099-12-31\. Recebido: '\d{4}-\d{2}-\d{2}'\."]},
    "listDueCharges": {400: [r"cursor inválido: use o nextCursor da página anterior\.", r"dueTo deve ser igual ou posterior a dueFrom\."]},
    # A static QR code: the fixed amount against the account's range, the description against the key's room.
    "createStaticQrCode": {
        400: [
            rf"Valor (abaixo do mínimo|acima do máximo)( permitido)? \({_BRL}\)\.",
            r"description deve ter no máximo \d+ caracteres nesta instalação \(cabe no QR code com a chave Pix\)\.",
        ],
        403: _ACCOUNT_REFUSALS,
    },
    "listStaticQrCodes": {400: [r"cursor inválido: use o nextCursor da página anterior\."]},
    # Pix Automático: rules across fields and against today, the account's range, the payer's document.
    "createRecurrence": {
        400: [
            r"payer\.document\.number não é um (CPF|CNPJ) válido \(dígito verificador incorreto\)\.",
            r"payer\.document\.number deve ter (11 dígitos para cpf|14 dígitos para cnpj)\. Recebido: \d+ dígitos\.",
            r"payer\.document\.number deve conter apenas dígitos, pontos, traços e barras\.",
            rf"Valor (abaixo do mínimo|acima do máximo)( permitido)? \({_BRL}\)\.",
            r"startDate deve ser a partir de \d{4}-\d{2}-\d{2} \(o ciclo chega ao banco do pagador com ao menos 2 dias de antecedência\)\.",
            r"startDate deve ser no máximo \d{4}-\d{2}-\d{2}\.",
            r"startDate deve ser uma data AAAA-MM-DD\. Recebido: '.*'\.",
            r"endDate deve ser uma data AAAA-MM-DD\. Recebido: '.*'\.",
            r"endDate deve ser igual ou posterior a startDate\.",
            r"Envie amountCents \(valor fixo\) ou minimumAmountCents \(valor variável\), não os dois\.",
            r"consent\.\w+ é obrigatório na jornada \w+\.",
            r"consent\.\w+ não se aplica à jornada '\w+'\.",
        ],
        403: _ACCOUNT_REFUSALS,
    },
    "cancelRecurrence": {
        403: _ACCOUNT_REFUSALS,
        409: [r"Recorrência com status '.*' não pode ser cancelada: apenas recorrências criadas ou aprovadas \(created, approved\)\."],
    },
    "listRecurrences": {400: [r"cursor inválido: use o nextCursor da página anterior\."]},
    "sendRecurrenceCycle": {
        400: [
            rf"Valor (abaixo do mínimo|acima do máximo)( permitido)? \({_BRL}\)\.",
            rf"Valor acima do máximo aceito pelo pagador \({_BRL}\)\.",
            rf"Valor abaixo do mínimo da recorrência \({_BRL}\)\.",
        ],
        403: _ACCOUNT_REFUSALS,
        409: [
            r"Recorrência de valor fixo: seus ciclos são enviados automaticamente\.",
            r"Recorrência com status '.*' não envia ciclos: apenas recorrências aprovadas \(approved\)\.",
            r"Não há próximo ciclo: a recorrência chegou à data final\.",
            r"O próximo ciclo \(vencimento \d{4}-\d{2}-\d{2}\) só pode ser enviado a partir de \d{4}-\d{2}-\d{2}\.",
        ],
    },
    "listRecurrenceCycles": {400: [r"cursor inválido: use o nextCursor da página anterior\."]},
    # A cursor this server did not issue, and a period whose end is not after its start.
    "listTransactions": {
        400: [r"cursor inválido: use o nextCursor da página anterior\.", r"createdTo deve ser maior que createdFrom\."],
    },
    "listBalanceEntries": {
        400: [r"cursor inválido: use o nextCursor da página anterior\.", r"createdTo deve ser maior que createdFrom\."],
    },
    "createRefund": {
        403: [
            r"Conta não está aprovada para uso da API\.",
            r"Conta suspensa\. Contate o suporte\.",
            r"IP de origem não autorizado.*",
        ],
        # The charge's state and the balance, which no schema can express.
        422: [
            r"Apenas cobranças \(pix_in\) podem ser devolvidas\.",
            r"Cobrança com status '.*' não pode ser devolvida: apenas cobranças pagas \(paid ou partially_refunded\)\.",
            r"Valor acima do disponível para devolução desta cobrança: restam R\$ .* \(\d+ centavos\)\.",
            r"Prazo de devolução encerrado: uma cobrança pode ser devolvida em até 90 dias após o pagamento\.",
            r"Saldo insuficiente para realizar a devolução\.",
        ],
    },
    "createRecipient": {
        400: [
            r"document não é um (CPF|CNPJ) válido \(dígito verificador incorreto\)\.",
            r"document deve ter (11 dígitos para cpf|14 dígitos para cnpj)\. Recebido: \d+\.",
            r"document deve conter apenas dígitos, pontos, traços e barras\.",
            r"Chave PIX \(CPF/CNPJ\) não corresponde ao documento informado\.",
            r"pixKey inválida para o tipo '.*'\.",
        ],
        403: [
            r"Conta não está aprovada para uso da API\.",
            r"Conta suspensa\. Contate o suporte\.",
            r"IP de origem não autorizado.*",
        ],
        422: [r"Limite de \d+ destinatários atingido\. Remova um inativo ou fale com o suporte\."],
    },
}

_COMPILED = {
    operation: {status: [re.compile(pattern, re.DOTALL) for pattern in patterns] for status, patterns in statuses.items()}
    for operation, statuses in DOCUMENTED_REFUSALS.items()
}


@schemathesis.check
def positive_refusal_is_documented(ctx, response, case):
    """A schema-valid request refused with 4xx must be refused for a reason the schema cannot express."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    refusals = _COMPILED.get(_operation_id(case))
    if refusals is None or response.status_code not in refusals:
        return None
    try:
        message = response.json().get("error")
    except Exception:  # not JSON: content_type_conformance and response_schema_conformance report it
        return None
    if not isinstance(message, str):
        return None
    if any(pattern.fullmatch(message) for pattern in refusals[response.status_code]):
        return None
    raise AssertionError(
        f"Schema-valid request refused with {response.status_code} {message!r}, which is not one of the "
        "refusals the schema cannot express (scripts/lib/conformance/hooks.py): the schema and the server "
        "disagree about this input."
    )
