"""/os-keypairs: a user's keypairs, created (the private key answered once)
or imported, listed, shown and deleted, as Nova serves them from 2.1 to
2.53: ``type`` from 2.2, an admin's ``user_id`` from 2.10, paging from
2.35."""
from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import validation
from nova.api.openstack import wsgi
from nova.api.openstack.compute.schemas import keypairs as schema
from nova.compute import keypairs
from nova.policies import keypairs as policies
from nova import policy

# Nova's key order of each view: the list's, then create's; ``type``
# (2.2) comes last in the list and show, first in create's answer
_LIST_KEYS = ('name', 'public_key', 'fingerprint')
_CREATE_KEYS = _LIST_KEYS + ('user_id',)


def _listed(row, with_type):
    body = {key: row[key] for key in _LIST_KEYS}
    if with_type:
        body['type'] = row['type']
    return body


def _created(row, with_type, private_key=None):
    body = {} if private_key is None else {'private_key': private_key}
    if with_type:
        body['type'] = row['type']
    body.update((key, row[key]) for key in _CREATE_KEYS)
    return body


def _shown(row, with_type):
    body = {key: row[key] for key in _CREATE_KEYS}
    # a live keypair's soft-delete and update columns, as Nova shows them
    body.update(created_at=row['created_at'].strftime('%Y-%m-%dT%H:%M:%S.%f'),
                deleted=False, deleted_at=None, id=row['id'], updated_at=None)
    if with_type:
        body['type'] = row['type']
    return body


def _user_id(req):
    """Whose keypairs: the caller's, or from 2.10 the ``user_id`` asked for
    (policy decides who may ask)."""
    if req.at_least(avr.KEYPAIR_USER_ID):
        validation.validate_query(req, schema.user_query)
        asked = req.GET.getall('user_id')
        if asked:
            return asked[0]
    return req.context.user_id


def _authorize(req, rule, user_id):
    policy.authorize(req.context, rule, {'user_id': user_id})


class KeypairsController:

    # the document describes requests at 2.1 (no version header), where
    # Nova ignores 2.35's limit and marker, so they are left out of it
    @validation.documented(query=schema.user_query, response=schema.list_response)
    def index(self, req):
        user_id = _user_id(req)
        _authorize(req, policies.INDEX, user_id)
        with_type = req.at_least(avr.KEYPAIR_TYPE)
        if not req.at_least(avr.KEYPAIR_PAGING):
            rows = keypairs.page(user_id)
            return {'keypairs': [{'keypair': _listed(r, with_type)} for r in rows]}
        validation.validate_query(req, schema.page_query)
        limit = common.limit_param(req)
        rows = keypairs.page(user_id, limit=limit, marker=req.GET.get('marker'))
        items = [_listed(r, with_type) for r in rows]
        body = {'keypairs': [{'keypair': item} for item in items]}
        links = common.next_link(req, 'os-keypairs', items, limit, id_key='name')
        if links:
            body['keypairs_links'] = links
        return body

    @validation.documented(body=schema.create_v210, response=schema.show_response)
    def create(self, req):
        if req.at_least(avr.KEYPAIR_USER_ID):
            body_schema = schema.create_v210
        elif req.at_least(avr.KEYPAIR_TYPE):
            body_schema = schema.create_v22
        else:
            body_schema = schema.create
        body = validation.validate(req.json_body(), body_schema)['keypair']
        user_id = body.get('user_id') or req.context.user_id
        _authorize(req, policies.CREATE, user_id)
        key_type = body.get('type', keypairs.SSH)
        with_type = req.at_least(avr.KEYPAIR_TYPE)
        req.response_code = 201 if with_type else 200
        if 'public_key' in body:
            row = keypairs.import_public(user_id, body['name'], body['public_key'], key_type)
            return {'keypair': _created(row, with_type)}
        row, private_key = keypairs.generate(user_id, body['name'], key_type)
        return {'keypair': _created(row, with_type, private_key)}

    @validation.documented(query=schema.user_query, response=schema.show_response)
    def show(self, req, keypair_name):
        user_id = _user_id(req)
        _authorize(req, policies.SHOW, user_id)
        row = keypairs.get(user_id, keypair_name)
        return {'keypair': _shown(row, req.at_least(avr.KEYPAIR_TYPE))}

    @wsgi.status(202)      # 2.1's; 204 from 2.2
    @validation.documented(query=schema.user_query)
    def delete(self, req, keypair_name):
        user_id = _user_id(req)
        _authorize(req, policies.DELETE, user_id)
        keypairs.delete(user_id, keypair_name)
        if req.at_least(avr.KEYPAIR_TYPE):
            req.response_code = 204
