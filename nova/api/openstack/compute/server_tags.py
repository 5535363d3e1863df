"""/servers/{server_id}/tags[/{tag}] (microversion 2.26), as Nova.

Nova's order of judgement, kept: the body, the server (any project's:
another project's caller is refused by policy), policy, the server's
state for writes, then the tag itself and the limit.
"""
import jsonschema

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import validation
from nova.api.openstack import wsgi
from nova.api.openstack.compute.schemas import servers as schema
from nova.compute import api as compute
from nova.policies import server_tags as tp
from nova import policy

_NULL_BODY = {'type': 'null'}


class ServerTagsController:

    @staticmethod
    def _server(req, server_id, rule):
        if not req.at_least(avr.SERVER_TAGS):
            raise faults.NotFound()
        row = compute.get_for_tags(req.context, server_id)
        policy.authorize(req.context, rule, {'project_id': row['project_id']})
        return row

    @validation.documented(response=schema.tags_response)
    def index(self, req, server_id):
        self._server(req, server_id, tp.INDEX)
        return {'tags': compute.tags(server_id)}

    @wsgi.status(204)
    @validation.documented()
    def show(self, req, server_id, tag):
        self._server(req, server_id, tp.SHOW)
        if tag not in compute.tags(server_id):
            raise faults.NotFound("Server %s has no tag '%s'" % (server_id, tag))

    @validation.documented(body=schema.update_all_tags, response=schema.tags_response)
    def update_all(self, req, server_id):
        if not req.at_least(avr.SERVER_TAGS):
            raise faults.NotFound()
        body = validation.validate(req.json_body(), schema.update_all_tags)
        row = self._server(req, server_id, tp.UPDATE_ALL)
        return {'tags': compute.tags_set(row, body['tags'])}

    @wsgi.status(201)
    @validation.documented()
    def update(self, req, server_id, tag):
        if not req.at_least(avr.SERVER_TAGS):
            raise faults.NotFound()
        if req.body:
            validation.validate(req.json_body(), _NULL_BODY)
        row = self._server(req, server_id, tp.UPDATE)
        compute.check_tag_writable(row, 'update tag')
        try:
            jsonschema.validate(tag, schema.tag)
        except jsonschema.ValidationError as exc:
            raise faults.BadRequest(
                "Tag '%s' is invalid. It must be a non empty string without characters "
                "'/' and ','. Validation error message: %s" % (tag, exc.message))
        if not compute.tag_add(row, tag):
            req.response_code = 204
            return None
        links = common.Links(req, 'servers')
        req.response_headers = [('Location', '%s%s/tags/%s' % (links.self_prefix,
                                                                server_id, tag))]
        return None

    @wsgi.status(204)
    @validation.documented()
    def delete(self, req, server_id, tag):
        row = self._server(req, server_id, tp.DELETE)
        compute.tag_delete(row, tag)

    @wsgi.status(204)
    @validation.documented()
    def delete_all(self, req, server_id):
        row = self._server(req, server_id, tp.DELETE_ALL)
        compute.tags_delete_all(row)
