/// The demo's configuration, built into the executable so `folio demo` runs from any directory
/// and inside the container. `config/demo.yaml` is the same text written out for reading and
/// copying; `DemoConfigurationTests` keeps the two equal.
public enum DemoConfiguration {
    /// Where the readable copy lives in the repository (the name used in config errors).
    public static let file = "config/demo.yaml"

    /// Stands for the built-in upstream's address; `folio demo` replaces it.
    public static let upstreamPlaceholder = "http://demo-upstream"

    public static let yaml = #"""
        # Folio demo configuration, used by `folio demo`.
        # `http://demo-upstream` is replaced by the address of the built-in legacy upstream,
        # and server.listen by `--port`.
        server:
          listen: 127.0.0.1:8080
          admin: 127.0.0.1:0

        logging:
          level: info

        defaults:
          pageSize: 25

        routes:
          # 1,337 objects served by the legacy upstream as one unpaginated array. With idField,
          # `?since=TOKEN` answers what changed since a snapshot, and `Accept: text/event-stream`
          # watches it (docs/API.md); fresh for 5 s, so a change upstream shows within seconds.
          - name: objects
            path: /objects
            upstream: http://demo-upstream/objects
            idField: id
            cache: { ttl: 5s }
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price]
            searchable: [name]

          # The same objects from a legacy endpoint that pages them 20 at a time behind
          # `Link: <…>; rel="next"` headers, with no total: Folio crawls every page once,
          # assembles the whole list and re-pages it like /objects.
          - name: paged-objects
            path: /paged-objects
            upstream: http://demo-upstream/paged/objects
            upstreamPaging: { style: linkHeader }
            idField: id
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]

          # The same list in the page shapes other servers' clients expect (dialects, docs/API.md, "Dialects"):
          # Django REST framework, Spring Data REST (HAL), json-server, react-admin's simple REST, Laravel's paginator,
          # JSON:API, OData v4, Strapi v4 and Stripe-style cursor lists.
          - name: drf-objects
            path: /drf/objects
            upstream: http://demo-upstream/objects
            dialect: drf
            idField: id
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price]
            searchable: [name]

          - name: hal-objects
            path: /hal/objects
            upstream: http://demo-upstream/objects
            dialect: hal
            idField: id
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price]
            searchable: [name]

          - name: jsonserver-objects
            path: /jsonserver/objects
            upstream: http://demo-upstream/objects
            dialect: jsonserver
            idField: id
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price, id]
            searchable: [name]

          - name: simplerest-objects
            path: /simplerest/objects
            upstream: http://demo-upstream/objects
            dialect: simplerest
            idField: id
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price, id]
            searchable: [name]

          - name: laravel-objects
            path: /laravel/objects
            upstream: http://demo-upstream/objects
            dialect: laravel
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price, id]
            searchable: [name]

          - name: jsonapi-objects
            path: /jsonapi/objects
            upstream: http://demo-upstream/objects
            dialect: jsonapi
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price, id]
            searchable: [name]
            idField: id
            type: objects

          - name: odata-objects
            path: /odata/objects
            upstream: http://demo-upstream/objects
            dialect: odata
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price, id]
            searchable: [name]
            idField: id

          - name: strapi-objects
            path: /strapi/objects
            upstream: http://demo-upstream/objects
            dialect: strapi
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price, id]
            searchable: [name]
            idField: id

          - name: stripe-objects
            path: /stripe/objects
            upstream: http://demo-upstream/objects
            dialect: stripe
            sort: [name]
            sectionKey: name
            sortable: [name, price, id]
            groupable: [category]
            filterable: [price, id]
            searchable: [name]
            idField: id

        """#
}
